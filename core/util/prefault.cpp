#include "core/util/prefault.h"

#include <algorithm>
#include <cstdint>

#if defined(__linux__)
#include <sys/mman.h>
#include <unistd.h>
#endif

namespace snapscope {
namespace {

#if defined(__linux__) && defined(MADV_POPULATE_WRITE)
// False when the kernel does not know the advice (before Linux 5.14).
bool populate(uintptr_t begin, uintptr_t end) {
  static const auto page = static_cast<uintptr_t>(::sysconf(_SC_PAGESIZE));
  begin = (begin + page - 1) / page * page;
  end = end / page * page;
  if (begin >= end) return true;
  return ::madvise(reinterpret_cast<void*>(begin), end - begin, MADV_POPULATE_WRITE) == 0;
}
#else
bool populate(uintptr_t, uintptr_t) { return false; }
#endif

}  // namespace

void populate_in_step(std::span<const MemoryRange> ranges, size_t slices) {
  slices = std::max<size_t>(slices, 1);
  for (size_t slice = 0; slice < slices; ++slice) {
    for (const MemoryRange& range : ranges) {
      const auto begin = reinterpret_cast<uintptr_t>(range.begin);
      const uintptr_t from = begin + range.bytes * slice / slices;
      const uintptr_t to = begin + range.bytes * (slice + 1) / slices;
      if (!populate(from, to)) return;
    }
  }
}

}  // namespace snapscope
