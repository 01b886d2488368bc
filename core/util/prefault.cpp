#include "core/util/prefault.h"

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#if defined(__linux__)
#include <sys/mman.h>
#include <unistd.h>
#endif

namespace snapscope {
namespace {

#if defined(__linux__) && defined(MADV_HUGEPAGE)
void advise_huge(uintptr_t begin, uintptr_t end) {
  if (begin < end) ::madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
}
#else
void advise_huge(uintptr_t, uintptr_t) {}
#endif

}  // namespace

#if defined(__linux__) && defined(MADV_POPULATE_WRITE)
uintptr_t memory_page_size() { return static_cast<uintptr_t>(::sysconf(_SC_PAGESIZE)); }
bool populate_pages(uintptr_t begin, uintptr_t end) {
  return begin >= end || ::madvise(reinterpret_cast<void*>(begin), end - begin, MADV_POPULATE_WRITE) == 0;
}
#else
uintptr_t memory_page_size() { return 4096; }
bool populate_pages(uintptr_t, uintptr_t) { return false; }
#endif

void advise_huge_pages(const void* begin, size_t bytes) {
  constexpr uintptr_t kHugePage = uintptr_t{2} << 20;
  const auto start = reinterpret_cast<uintptr_t>(begin);
  advise_huge((start + kHugePage - 1) / kHugePage * kHugePage, (start + bytes) / kHugePage * kHugePage);
}

void populate_in_step(std::span<const MemoryRange> ranges, size_t slices) {
  slices = std::max<size_t>(slices, 1);
  const uintptr_t page = memory_page_size();
  // The whole pages inside each range, cut into slices at page boundaries (so none is skipped).
  std::vector<std::pair<uintptr_t, size_t>> pages;  // first page address, page count
  for (const MemoryRange& range : ranges) {
    const auto begin = reinterpret_cast<uintptr_t>(range.begin);
    const uintptr_t first = (begin + page - 1) / page * page, end = (begin + range.bytes) / page * page;
    pages.emplace_back(first, first < end ? (end - first) / page : 0);
  }
  for (size_t slice = 0; slice < slices; ++slice) {
    for (const auto& [first, count] : pages) {
      if (!populate_pages(first + count * slice / slices * page, first + count * (slice + 1) / slices * page))
        return;
    }
  }
}

}  // namespace snapscope
