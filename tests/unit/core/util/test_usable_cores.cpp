#include <doctest/doctest.h>
#include <sched.h>

#include <thread>

#include "core/util/usable_cores.h"

using namespace snapscope;

TEST_CASE("usable cores follow the affinity mask, not the machine's core count") {
  CHECK(usable_cores() >= 1);
  CHECK(usable_cores() <= std::max(1u, std::thread::hardware_concurrency()));
  unsigned pinned = 0;
  std::thread([&pinned] {  // a thread of its own, so the test's mask is left as it was
    cpu_set_t allowed;
    CPU_ZERO(&allowed);
    REQUIRE(sched_getaffinity(0, sizeof allowed, &allowed) == 0);
    int first = 0;
    while (!CPU_ISSET(first, &allowed)) ++first;
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(first, &one);
    REQUIRE(sched_setaffinity(0, sizeof one, &one) == 0);
    pinned = usable_cores();
  })
      .join();
  CHECK(pinned == 1);
}
