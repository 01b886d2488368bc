#include "core/lod/stack_fenwick.h"

#include <bit>

namespace snapscope {

StackFenwick::StackFenwick(size_t positions)
    : tree_(positions, 0), top_bit_(positions == 0 ? 0 : std::bit_floor(positions)) {}

void StackFenwick::add(uint32_t position, int64_t delta) {
  for (size_t i = size_t{position} + 1; i <= tree_.size(); i += i & (~i + 1)) {
    tree_[i - 1] += static_cast<uint64_t>(delta);  // modular: negative deltas wrap back
  }
}

uint64_t StackFenwick::bytes_below(uint32_t position) const {
  uint64_t sum = 0;
  for (size_t i = position; i > 0; i -= i & (~i + 1)) sum += tree_[i - 1];
  return sum;
}

StackCover StackFenwick::covering(uint64_t offset) const {
  size_t found = 0;  // number of leading positions whose bytes all lie at or below `offset`
  uint64_t remaining = offset;
  for (size_t step = top_bit_; step > 0; step >>= 1) {
    size_t next = found + step;
    if (next <= tree_.size() && tree_[next - 1] <= remaining) {
      found = next;
      remaining -= tree_[next - 1];
    }
  }
  return {static_cast<uint32_t>(found), offset - remaining};
}

}  // namespace snapscope
