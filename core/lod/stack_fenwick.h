// Fenwick (binary indexed) tree over memory_viz stack positions holding the sizes of the live
// allocations: the offset of any allocation (bytes below it) and "which position covers byte y"
// are O(log n) in the current state.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace snapscope {

// A position and the live bytes below it: what one descent of the tree finds.
struct StackCover {
  uint32_t position = 0;
  uint64_t bytes_below = 0;
};

class StackFenwick {
 public:
  explicit StackFenwick(size_t positions = 0);

  size_t size() const { return tree_.size(); }
  void add(uint32_t position, int64_t delta);
  uint64_t bytes_below(uint32_t position) const;  // sum of positions [0, position)
  // The first position whose live bytes end above `offset`: the allocation covering byte
  // `offset` when one does (size() when offset is at or above the total), with the bytes below it.
  StackCover covering(uint64_t offset) const;

 private:
  std::vector<uint64_t> tree_;  // 1-based internally: tree_[i - 1] covers (i - lowbit(i), i]
  size_t top_bit_ = 0;
};

}  // namespace snapscope
