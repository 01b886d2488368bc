// Backs memory with pages before it is first written. A first write to a fresh page costs a
// page fault (a quarter of the time of replaying a 20M-action timeline went to them); the
// kernel populates a range much faster than one fault per page, and it can do so on another
// core while the owner fills the memory.
#pragma once

#include <cstddef>
#include <span>

namespace snapscope {

struct MemoryRange {
  const void* begin = nullptr;
  size_t bytes = 0;
};

// Populates the whole pages inside each range, the ranges in step (a slice of each in turn), so
// a writer filling them all front to back meets populated pages as early as possible. Best
// effort: a no-op where the kernel cannot do it. Contents are unchanged.
void populate_in_step(std::span<const MemoryRange> ranges, size_t slices = 64);

}  // namespace snapscope
