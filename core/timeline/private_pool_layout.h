// memory_viz's "Allocated Memory (incl. Private Pools)" view over a blocks Timeline
// (process_alloc_data with include_private_inactive). The memory of a private pool (a CUDA graph's
// pool, a torch.cuda.MemPool) is a block in the stack, its "envelope", whose height is the most
// the pool ever held: the larger of its live blocks and its reserved segments, and it never
// shrinks. The pool's live blocks are drawn inside it, packed from its bottom in allocation
// order; the rest of it is the pool's inactive memory. Allocations outside private pools stack
// as in the Active Memory Timeline, and an envelope takes the stack place of its pool's first
// allocation.
//
// States are the Timeline's (same actions, same x axis). Where memory_viz spends extra timesteps
// on an envelope growing or on blocks sliding inside a pool, this view has none: the state after
// an action shows the growth the segment events right before it caused. Segment events after the
// last action count in the final state.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include "core/timeline/timeline.h"

namespace snapscope {

// memory_viz keys an envelope by pool and stream: one pool used from two streams draws two.
struct PoolKey {
  std::array<int64_t, 2> pool{};  // segment_pool_id; never the default (0, 0)
  uint64_t stream = 0;
  auto operator<=>(const PoolKey&) const = default;
};

// What the view needs beside the Timeline: which pool each allocation belongs to (found by
// address among the end-of-trace segments, as memory_viz's find_pool_id), and the pools'
// reserved memory over the trace.
struct PrivatePoolInput {
  struct SegmentChange {
    size_t position = 0;  // the number of timeline actions before the segment event
    uint32_t pool = 0;
    int64_t delta = 0;  // + for segment_alloc / segment_map, - for segment_free / segment_unmap
  };
  std::vector<PoolKey> pools;
  std::vector<uint32_t> element_pool;          // per timeline element; kNoIndex: not in a private pool
  std::vector<uint64_t> snapshot_reserved;     // per pool: its end-of-trace segments' bytes
  std::vector<SegmentChange> segment_changes;  // ascending position
};

// One item of the view's stack in a state.
struct PoolViewItem {
  enum class Kind : uint8_t {
    Allocation,    // an allocation outside private pools, or a pool's live block
    PoolInactive,  // the part of a pool's envelope its live blocks do not fill
  };
  Kind kind = Kind::Allocation;
  uint32_t elem = kNoIndex;  // Allocation
  uint32_t pool = kNoIndex;  // the private pool (PoolInactive, or an Allocation inside a pool)
  uint64_t offset = 0, size = 0;
};

class PrivatePoolLayout {
 public:
  // Throws std::invalid_argument when the input does not fit the timeline.
  PrivatePoolLayout(const Timeline& timeline, PrivatePoolInput input);

  const Timeline& timeline() const { return timeline_; }
  size_t pool_count() const { return input_.pools.size(); }
  const PoolKey& pool(uint32_t pool) const { return input_.pools[pool]; }
  uint32_t pool_of(uint32_t elem) const { return input_.element_pool[elem]; }
  // A pool's envelope exists from the state its first allocation is live in, at that
  // allocation's stack position (kNoIndex / never_freed() for a pool with no allocation).
  uint32_t envelope_position(uint32_t pool) const { return envelopes_[pool].position; }
  size_t envelope_state(uint32_t pool) const { return envelopes_[pool].first_state; }
  uint64_t envelope_bytes(uint32_t pool, size_t state) const;  // 0 before it exists
  // Pools whose envelope exists by the end, by stack position.
  const std::vector<uint32_t>& envelopes_by_position() const { return by_position_; }

  // The view's total in state s (what memory_viz's max_at_time shows), O(1).
  uint64_t total_at_state(size_t state) const { return totals_[state]; }
  const std::vector<uint64_t>& state_totals() const { return totals_; }
  uint64_t peak_bytes() const { return peak_bytes_; }
  size_t peak_state() const { return peak_state_; }  // the first state showing peak_bytes()

  // The stack in state s, bottom to top: allocations outside pools, and each envelope as its live
  // blocks (in allocation order) followed by its inactive part. O(live allocations).
  std::vector<PoolViewItem> layout_at(size_t state) const;
  std::optional<PoolViewItem> item_at(size_t state, uint64_t byte) const;

  size_t memory_bytes() const;

 private:
  struct Envelope {
    uint32_t position = kNoIndex;
    size_t first_state = 0;
    std::vector<std::pair<size_t, uint64_t>> growth;  // (state, bytes from that state on), ascending
  };
  void validate() const;
  void sweep();

  const Timeline& timeline_;
  PrivatePoolInput input_;
  std::vector<Envelope> envelopes_;
  std::vector<uint32_t> by_position_;
  std::vector<uint64_t> totals_;  // action_count() + 1
  uint64_t peak_bytes_ = 0;
  size_t peak_state_ = 0;
};

}  // namespace snapscope
