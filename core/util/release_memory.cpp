#include "core/util/release_memory.h"

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace snapscope {

void release_free_memory() {
#if defined(__GLIBC__)
  ::malloc_trim(0);
#endif
}

}  // namespace snapscope
