#include <doctest/doctest.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

#include "core/util/background_priority.h"
#include "core/util/usable_cores.h"

using namespace snapscope;

namespace {

struct ThreadPriority {
  int policy = -1;
  int nice = 0;
};

ThreadPriority own_priority() {
  ThreadPriority seen;
  sched_param param{};
  (void)pthread_getschedparam(pthread_self(), &seen.policy, &param);
  seen.nice = getpriority(PRIO_PROCESS, static_cast<id_t>(syscall(SYS_gettid)));
  return seen;
}

// The policy and nice value a new thread ends with after set_thread_priority(nice, idle_class).
// A new thread starts with its creator's (this test's thread may have been lowered by a test
// before it, and an unprivileged thread cannot raise itself again).
ThreadPriority priority_after(int nice, bool idle_class) {
  ThreadPriority seen;
  std::thread([&] {
    set_thread_priority(nice, idle_class);
    seen = own_priority();
  }).join();
  return seen;
}

// What set_thread_priority(nice, false) leaves on a thread that started as `parent`: the nice
// value asked for, unless that would raise a lowered thread without the privilege to.
bool nice_as_asked(const ThreadPriority& seen, int nice, const ThreadPriority& parent) {
  return seen.nice == nice || (nice < parent.nice && seen.nice == parent.nice);
}

}  // namespace

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

TEST_CASE("a thread's priority: a nice value, and the idle class only when asked") {
  const ThreadPriority parent = own_priority();
  const ThreadPriority idle = priority_after(kBulkWorkNice, true);
  CHECK(idle.policy == SCHED_IDLE);
  CHECK(nice_as_asked(idle, kBulkWorkNice, parent));
  const ThreadPriority normal = priority_after(kBulkWorkNice, false);
  CHECK(normal.policy == parent.policy);  // SCHED_OTHER unless this thread was made idle-class
  CHECK(nice_as_asked(normal, kBulkWorkNice, parent));
  const ThreadPriority chart = priority_after(kChartWorkerNice, false);
  CHECK(chart.policy == parent.policy);
  CHECK(nice_as_asked(chart, kChartWorkerNice, parent));
}

TEST_CASE("bulk work runs at the bulk nice value, idle-class or not as the load decides") {
  const ThreadPriority parent = own_priority();
  ThreadPriority seen;
  start_bulk_work([&] {
    seen = own_priority();
    return 0;
  }).get();
  CHECK(nice_as_asked(seen, kBulkWorkNice, parent));
  CHECK((seen.policy == SCHED_IDLE || seen.policy == SCHED_OTHER));
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
