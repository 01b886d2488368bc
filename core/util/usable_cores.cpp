#include "core/util/usable_cores.h"

#include <sched.h>

#include <algorithm>
#include <thread>

namespace snapscope {

unsigned usable_cores() {
  // std::thread::hardware_concurrency() counts the machine's online CPUs, not this process's.
  cpu_set_t allowed;
  CPU_ZERO(&allowed);
  if (sched_getaffinity(0, sizeof allowed, &allowed) == 0) {
    const int count = CPU_COUNT(&allowed);
    if (count > 0) return static_cast<unsigned>(count);
  }
  return std::max(1u, std::thread::hardware_concurrency());
}

}  // namespace snapscope
