// Backs memory with pages before it is first written. A first write to a fresh page costs a
// page fault (a quarter of the time of replaying a 20M-action timeline went to them); the
// kernel populates a range much faster than one fault per page, and it can do so on another
// core while the owner fills the memory.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "core/util/column.h"

namespace snapscope {

struct MemoryRange {
  const void* begin = nullptr;
  size_t bytes = 0;
};

uintptr_t memory_page_size();
// Populates the pages [begin, end) (page-aligned bounds) for writing. False when the kernel
// cannot (before Linux 5.14); contents are unchanged.
bool populate_pages(uintptr_t begin, uintptr_t end);

// Populates the whole pages inside each range, the ranges in step (a slice of each in turn), so
// a writer filling them all front to back meets populated pages as early as possible. Best
// effort: a no-op where the kernel cannot do it. Contents are unchanged.
void populate_in_step(std::span<const MemoryRange> ranges, size_t slices = 64);

// Asks for transparent huge pages (2 MiB) in the whole huge pages inside a range not written
// yet: one fault per 2 MiB instead of per 4 KiB. Page faults are dear (most of all in a VM, where
// they took a quarter of the pickle reader's time), and the big arrays of a multi-GB snapshot
// are written once, front to back. Best effort: a no-op where THP is off or unknown.
void advise_huge_pages(const void* begin, size_t bytes);
// The same for a vector's whole reserved storage, called after reserve() and before the fill.
template <typename T, typename Allocator>
void advise_huge_pages(const std::vector<T, Allocator>& reserved) {
  advise_huge_pages(reserved.data(), reserved.capacity() * sizeof(T));
}
// The same for an owned Column (a view is never written).
template <typename T>
void advise_huge_pages(Column<T>& reserved) {
  if (!reserved.is_view()) advise_huge_pages(reserved.data(), reserved.capacity() * sizeof(T));
}

}  // namespace snapscope
