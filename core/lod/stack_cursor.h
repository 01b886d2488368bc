// The memory_viz stack in one state, kept incrementally: a Fenwick tree over stack positions
// holding the live allocations' sizes, for offsets and "which allocation covers byte y". Moving
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

  uint64_t offset_of(uint32_t position) const { return fenwick_.bytes_below(position); }
  uint32_t position_covering(uint64_t offset) const { return fenwick_.position_covering(offset); }
  bool is_live(uint32_t position) const { return live_[position] != 0; }
  uint32_t position_count() const { return static_cast<uint32_t>(live_.size()); }
  uint64_t size_at(uint32_t position) const;
  // The lowest stack position whose liveness changed since the last call (kNoIndex if none):
  // every offset below it is unchanged.
  uint32_t take_lowest_change() { return std::exchange(lowest_change_, kNoIndex); }

 private:
  void set_live(uint32_t position, bool live);

  const Timeline& timeline_;
  const StateDeltaIndex& deltas_;
  StackFenwick fenwick_;
  std::vector<uint8_t> live_;  // per stack position: lets a scan step over positions in O(1)
  size_t state_ = 0;
  uint32_t lowest_change_ = 0;
};

}  // namespace snapscope
