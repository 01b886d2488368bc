#include "core/util/background_priority.h"

#if defined(__linux__)
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

namespace snapscope {

void lower_thread_priority() {
#if defined(__linux__)
  // Linux applies a nice value to one thread when given its thread id.
  constexpr int kNice = 10;
  (void)setpriority(PRIO_PROCESS, static_cast<id_t>(syscall(SYS_gettid)), kNice);
#endif
}

}  // namespace snapscope
