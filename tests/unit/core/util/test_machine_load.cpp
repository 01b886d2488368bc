#include <doctest/doctest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

#include "core/util/machine_load.h"
#include "core/util/usable_cores.h"

using namespace snapscope;

TEST_CASE("bulk work goes idle-class only while other processes leave a core free") {
  CHECK(idle_class_may_run(0, 2));
  CHECK(idle_class_may_run(1, 2));  // one busy loop: the other core is free
  CHECK_FALSE(idle_class_may_run(2, 2));
  CHECK_FALSE(idle_class_may_run(5, 2));
  CHECK_FALSE(idle_class_may_run(1, 1));
  CHECK(idle_class_may_run(63, 64));
  CHECK_FALSE(idle_class_may_run(64, 64));
  CHECK(idle_class_may_run(-1, 2));  // no count: as before, idle-class
}

TEST_CASE("runnable threads: the machine's, and this process's own among them") {
  std::atomic<bool> stop{false};
  std::vector<std::thread> spinners;
  for (int i = 0; i < 3; ++i) {
    spinners.emplace_back([&stop] {
      while (!stop.load(std::memory_order_relaxed)) {
      }
    });
  }
  const long own = own_runnable_threads();
  const long all = runnable_threads();
  stop = true;
  for (std::thread& spinner : spinners) spinner.join();
  CHECK(own >= 4);  // the spinners, always runnable, and this thread
  CHECK(all >= 1);  // this thread at least; the machine's count is read at another instant
}

TEST_CASE("busy processes beside this one, one per core, make the machine busy") {
  const unsigned cores = usable_cores();
  std::vector<pid_t> children;
  for (unsigned i = 0; i < cores; ++i) {
    const pid_t child = fork();
    REQUIRE(child >= 0);
    if (child == 0) {
      volatile unsigned long spins = 0;  // volatile: a loop with no side effect may be removed
      for (;;) spins = spins + 1;
    }
    children.push_back(child);
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  long others = -1;  // the most of a few looks: one can fall when this process's threads just woke
  for (int look = 0; look < 5; ++look) others = std::max(others, other_runnable_threads());
  const bool busy = machine_busy();
  for (const pid_t child : children) {
    kill(child, SIGKILL);
    waitpid(child, nullptr, 0);
  }
  CHECK(others >= static_cast<long>(cores));
  CHECK(busy);
}

TEST_CASE("the machine's load is looked at once a second, not at every bulk task") {
  const int64_t t0 = int64_t{1} << 50;  // far past any real steady clock reading of this process
  (void)machine_busy_at(t0);
  const uint64_t looks = machine_looks_taken();
  const bool answer = machine_busy_at(t0 + 10);
  CHECK(machine_busy_at(t0 + 999) == answer);
  CHECK(machine_looks_taken() == looks);  // kept
  (void)machine_busy_at(t0 + 1000);
  CHECK(machine_looks_taken() == looks + 1);  // a second later: looked again
  (void)machine_busy_at(t0 - 5000);           // a clock before the kept answer: looked again
  CHECK(machine_looks_taken() == looks + 2);
}
