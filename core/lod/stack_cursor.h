// The memory_viz stack in one state, kept incrementally: a Fenwick tree over stack positions
// for offsets, plus the ordered set of live "big" allocations (at least `big_threshold` bytes,
// i.e. one pixel tall) that the level-of-detail builder draws individually. Moving between
// states costs the allocations whose liveness differs (StateDeltaIndex), not the actions between.
#pragma once

#include <cstdint>
#include <set>
#include <utility>

#include "core/lod/stack_fenwick.h"
#include "core/lod/state_delta_index.h"
#include "core/timeline/timeline.h"

namespace snapscope {

class StackCursor {
 public:
  StackCursor(const Timeline& timeline, const StateDeltaIndex& deltas);

  size_t state() const { return state_; }
  void move_to(size_t state);
  // Re-selects the big allocations for a new pixel size (only when it changed).
  void set_big_threshold(uint64_t bytes);

  uint64_t offset_of(uint32_t position) const { return fenwick_.bytes_below(position); }
  uint32_t position_covering(uint64_t offset) const { return fenwick_.position_covering(offset); }
  const std::set<uint32_t>& big_positions() const { return big_; }
  uint64_t big_bytes() const { return big_bytes_; }  // sum of the big live allocations
  // The lowest stack position whose liveness changed since the last call (kNoIndex if none):
  // every offset below it is unchanged.
  uint32_t take_lowest_change() { return std::exchange(lowest_change_, kNoIndex); }

 private:
  void set_live(uint32_t position, bool live);
  uint64_t size_at(uint32_t position) const;

  const Timeline& timeline_;
  const StateDeltaIndex& deltas_;
  StackFenwick fenwick_;
  size_t state_ = 0;
  uint64_t big_threshold_ = 1;
  std::set<uint32_t> big_;
  uint64_t big_bytes_ = 0;
  uint32_t lowest_change_ = 0;
};

}  // namespace snapscope
