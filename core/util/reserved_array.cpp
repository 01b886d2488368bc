#include "core/util/reserved_array.h"

#include <cstdint>
#include <cstdlib>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace snapscope::reserved_memory {

namespace {
constexpr size_t kHugePage = size_t{2} << 20;
}

#if defined(__linux__)
void* reserve(size_t bytes) {
  if (bytes == 0) return nullptr;
  void* p =
      ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED) throw std::bad_alloc();
#if defined(MADV_HUGEPAGE)
  // From the first whole huge page past 2 MiB: small inputs keep 4 KiB pages (no 2 MiB zeroed
  // for a few slots). Best effort: THP may be off.
  const auto begin = reinterpret_cast<uintptr_t>(p);
  const uintptr_t first = (begin + 2 * kHugePage - 1) / kHugePage * kHugePage;
  const uintptr_t end = (begin + bytes) / kHugePage * kHugePage;
  if (first < end) ::madvise(reinterpret_cast<void*>(first), end - first, MADV_HUGEPAGE);
#endif
  return p;
}

void release(void* begin, size_t bytes) {
  if (begin != nullptr) ::munmap(begin, bytes);
}
#else
void* reserve(size_t bytes) {
  if (bytes == 0) return nullptr;
  void* p = std::calloc(1, bytes);
  if (p == nullptr) throw std::bad_alloc();
  return p;
}

void release(void* begin, size_t) { std::free(begin); }
#endif

}  // namespace snapscope::reserved_memory
