// The stack of the private pools view (core/timeline/private_pool_layout.h) in one state, kept
// incrementally like StackCursor: a Fenwick tree over stack positions holding the live
// allocations outside private pools and, at each envelope's position, the envelope's height; and
// one small Fenwick tree per pool over its allocations (in stack order) for the blocks packed
// inside the envelope. "What covers byte y" is two descents at most.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "core/lod/stack_fenwick.h"
#include "core/lod/state_delta_index.h"
#include "core/timeline/private_pool_layout.h"

namespace snapscope {

struct PoolStackHit {
  PoolViewItem item;
  uint32_t sort_key = 0;  // unique per item, the same in every state (RunTracker's position)
};

class PoolStackCursor {
 public:
  PoolStackCursor(const PrivatePoolLayout& layout, const StateDeltaIndex& deltas);

  size_t state() const { return state_; }
  void move_to(size_t state);
  uint64_t total() const { return layout_.total_at_state(state_); }
  // The item covering `byte` in the current state; none at or above the total.
  std::optional<PoolStackHit> item_at(uint64_t byte) const;

 private:
  void set_live(uint32_t position, bool live);
  void sync_envelopes();

  const PrivatePoolLayout& layout_;
  const Timeline& timeline_;
  const StateDeltaIndex& deltas_;
  StackFenwick stack_;
  std::vector<uint32_t> member_index_;            // per element: its index in its pool
  std::vector<std::vector<uint32_t>> members_;    // per pool: its elements by stack position
  std::vector<StackFenwick> pool_blocks_;         // per pool: live bytes by member index
  std::vector<uint64_t> pool_active_, envelope_;  // per pool, in the current state
  size_t state_ = 0;
};

}  // namespace snapscope
