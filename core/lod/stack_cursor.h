// The memory_viz stack in one state, kept incrementally: which stack positions are live, and a
// Fenwick tree of the live bytes per block of 16 positions, for offsets and "which allocation
// covers byte y" (O(log n) over the blocks, then at most 15 positions of a block). A tree over
// every position took 8 bytes per allocation (80 MB at 10M); the blocks take half a byte. Moving
// between states costs the allocations whose liveness differs (StateDeltaIndex), not the actions
// between.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "core/lod/stack_fenwick.h"
#include "core/lod/state_delta_index.h"
#include "core/timeline/timeline.h"

namespace snapscope {

class StackCursor {
 public:
  StackCursor(const Timeline& timeline, const StateDeltaIndex& deltas);

  size_t state() const { return state_; }
  void move_to(size_t state);

  uint64_t offset_of(uint32_t position) const;  // the live bytes below `position`
  // The first position whose live bytes end above `offset` (position_count() if none), with
  // its offset: one descent of the block tree.
  StackCover covering(uint64_t offset) const;
  bool is_live(uint32_t position) const { return live_[position] != 0; }
  uint32_t position_count() const { return static_cast<uint32_t>(live_.size()); }
  uint64_t size_at(uint32_t position) const;
  // The lowest stack position whose liveness changed since the last call (kNoIndex if none):
  // every offset below it is unchanged.
  uint32_t take_lowest_change() { return std::exchange(lowest_change_, kNoIndex); }

 private:
  static constexpr uint32_t kBlock = 16;  // stack positions per entry of block_bytes_
  void set_live(uint32_t position, bool live);
  uint64_t live_bytes_at(uint32_t position) const { return live_[position] != 0 ? size_at(position) : 0; }

  const Timeline& timeline_;
  const StateDeltaIndex& deltas_;
  StackFenwick block_bytes_;   // live bytes per block of kBlock positions
  std::vector<uint8_t> live_;  // per stack position: lets a scan step over positions in O(1)
  size_t state_ = 0;
  uint32_t lowest_change_ = 0;
};

}  // namespace snapscope
