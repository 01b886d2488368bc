#include "core/util/background_priority.h"

#include "core/util/machine_load.h"

#if defined(__linux__)
#include <pthread.h>
#include <sched.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

namespace snapscope {

void lower_thread_priority(int nice) {
  set_thread_priority(nice, nice >= kBulkWorkNice && !machine_busy_lately());
}

void set_thread_priority([[maybe_unused]] int nice, [[maybe_unused]] bool idle_class) {
#if defined(__linux__)
  // Linux applies a nice value to one thread when given its thread id.
  (void)setpriority(PRIO_PROCESS, static_cast<id_t>(syscall(SYS_gettid)), nice);
  // Bulk work also leaves the scheduler's normal class when a core is free for it: a nice-10
  // thread still gets a tenth of a core beside the chart worker, and three of them at once
  // (stack catalog, phases, allocator history right after a load) delayed the first frame by
  // ~100 ms on two cores. An idle-class thread runs only on otherwise idle cores (an
  // unprivileged thread may always lower itself).
  if (idle_class) {
    sched_param param{};
    (void)pthread_setschedparam(pthread_self(), SCHED_IDLE, &param);
  }
#endif
}

}  // namespace snapscope
