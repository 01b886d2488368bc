#include <doctest/doctest.h>
#include <pthread.h>
#include <sched.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <thread>

#include "core/util/background_priority.h"

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
