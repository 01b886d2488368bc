#include "core/util/background_priority.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>

#include "core/util/usable_cores.h"

#if defined(__linux__)
#include <pthread.h>
#include <sched.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

namespace snapscope {

long runnable_threads() {
  // "0.52 0.58 0.59 3/467 12345": the fourth field is runnable / all scheduling entities.
  std::ifstream loadavg("/proc/loadavg");
  double averages[3] = {};
  long runnable = -1;
  if (!(loadavg >> averages[0] >> averages[1] >> averages[2] >> runnable)) return -1;
  return runnable;
}

long own_runnable_threads() {
  // Never throws: a thread that ends while its entry is read is simply not counted.
  std::error_code error;
  long running = 0;
  for (std::filesystem::directory_iterator task("/proc/self/task", error), end; !error && task != end;
       task.increment(error)) {
    std::ifstream stat(task->path() / "stat");
    std::string line;
    std::getline(stat, line);
    // "tid (name) S ...": the state follows the name's last ')' (a name may hold one).
    const size_t name_end = line.rfind(')');
    if (name_end != std::string::npos && name_end + 2 < line.size() && line[name_end + 2] == 'R') ++running;
  }
  return running > 0 ? running : -1;  // the calling thread runs: none read means no /proc
}

bool idle_class_may_run(long others, unsigned cores) {
  return others < 0 || others < static_cast<long>(cores);
}

void lower_thread_priority(int nice) {
  bool idle_class = nice >= kBulkWorkNice;
  if (idle_class) {
    const long all = runnable_threads();
    const long own = own_runnable_threads();
    // Both read at slightly different instants: our own threads may outnumber the total.
    idle_class = idle_class_may_run(all < 0 || own < 0 ? -1 : std::max(0L, all - own), usable_cores());
  }
  set_thread_priority(nice, idle_class);
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
