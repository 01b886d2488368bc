#include "core/util/background_priority.h"

#if defined(__linux__)
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

namespace snapscope {

void lower_thread_priority([[maybe_unused]] int nice) {
#if defined(__linux__)
  // Linux applies a nice value to one thread when given its thread id.
  (void)setpriority(PRIO_PROCESS, static_cast<id_t>(syscall(SYS_gettid)), nice);
#endif
}

}  // namespace snapscope
