#include "core/timeline/private_pool_layout.h"

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>

namespace snapscope {
namespace {

// Reserved bytes of a crafted file may add up past int64: saturate instead of overflowing.
int64_t saturating_add(int64_t a, int64_t b) {
  int64_t sum = 0;
  if (!__builtin_add_overflow(a, b, &sum)) return sum;
  return b > 0 ? std::numeric_limits<int64_t>::max() : std::numeric_limits<int64_t>::min();
}

constexpr int64_t kMaxDelta = std::numeric_limits<int64_t>::max();  // -kMaxDelta negates safely

int64_t clamped(uint64_t bytes) {
  return static_cast<int64_t>(std::min<uint64_t>(bytes, std::numeric_limits<int64_t>::max()));
}

}  // namespace

PrivatePoolLayout::PrivatePoolLayout(const Timeline& timeline, PrivatePoolInput input)
    : timeline_(timeline), input_(std::move(input)), envelopes_(input_.pools.size()) {
  validate();
  sweep();
  for (uint32_t p = 0; p < envelopes_.size(); ++p) {
    if (envelopes_[p].position != kNoIndex) by_position_.push_back(p);
  }
  std::sort(by_position_.begin(), by_position_.end(),
            [&](uint32_t a, uint32_t b) { return envelopes_[a].position < envelopes_[b].position; });
  const auto peak = std::max_element(totals_.begin(), totals_.end());
  peak_state_ = static_cast<size_t>(peak - totals_.begin());
  peak_bytes_ = *peak;
}

void PrivatePoolLayout::validate() const {
  const size_t pools = input_.pools.size();
  if (input_.element_pool.size() != timeline_.element_count()) {
    throw std::invalid_argument("private pools: " + std::to_string(input_.element_pool.size()) +
                                " element pools for " + std::to_string(timeline_.element_count()) +
                                " allocations");
  }
  for (uint32_t pool : input_.element_pool) {
    if (pool != kNoIndex && pool >= pools)
      throw std::invalid_argument("private pools: pool index out of range");
  }
  if (input_.snapshot_reserved.size() != pools) {
    throw std::invalid_argument("private pools: reserved bytes not given for every pool");
  }
  size_t previous = 0;
  for (const auto& change : input_.segment_changes) {
    if (change.pool >= pools || change.position < previous || change.position > timeline_.action_count()) {
      throw std::invalid_argument("private pools: segment changes out of range or order");
    }
    previous = change.position;
  }
}

// One pass over the actions, as process_alloc_data's replay: an envelope grows to the larger of
// its pool's live and reserved bytes whenever either rises above it, and never shrinks.
void PrivatePoolLayout::sweep() {
  const size_t pools = input_.pools.size();
  std::vector<uint64_t> active(pools, 0), height(pools, 0);
  std::vector<int64_t> reserved(pools, 0);
  uint64_t all_active = 0, all_height = 0;
  const auto grow = [&](uint32_t p, size_t state, uint64_t bytes) {
    if (bytes <= height[p]) return;
    all_height += bytes - height[p];
    height[p] = bytes;
    auto& growth = envelopes_[p].growth;
    if (!growth.empty() && growth.back().first == state) {
      growth.back().second = bytes;
    } else {
      growth.emplace_back(state, bytes);
    }
  };
  const auto open_envelope = [&](uint32_t p, uint32_t elem, size_t state) {
    Envelope& envelope = envelopes_[p];
    if (envelope.position != kNoIndex) return;
    envelope.position = timeline_.stack_position(elem);
    envelope.first_state = state;
  };
  const auto reserved_target = [&](uint32_t p) {
    return static_cast<uint64_t>(std::max<int64_t>(reserved[p], 0));
  };

  // Blocks live at the start sit in their envelopes before any reserved memory is known.
  for (uint32_t elem : timeline_.input().initial_stack) {
    const uint32_t p = input_.element_pool[elem];
    if (p == kNoIndex) continue;
    open_envelope(p, elem, 0);
    active[p] += timeline_.element(elem).size;
    all_active += timeline_.element(elem).size;
    grow(p, 0, active[p]);
  }
  // Reserved at the start: the end-of-trace segments less what the trace's segment events added.
  for (uint32_t p = 0; p < pools; ++p) reserved[p] = clamped(input_.snapshot_reserved[p]);
  for (const auto& change : input_.segment_changes) {
    reserved[change.pool] = saturating_add(reserved[change.pool], -std::max(change.delta, -kMaxDelta));
  }
  for (uint32_t p = 0; p < pools; ++p) {
    if (envelopes_[p].position != kNoIndex) grow(p, 0, reserved_target(p));
  }

  const size_t actions = timeline_.action_count();
  totals_.assign(actions + 1, 0);
  totals_[0] = timeline_.total_at_state(0) - all_active + all_height;
  size_t next_change = 0;
  const auto apply_changes = [&](size_t up_to_position, size_t state) {
    for (; next_change < input_.segment_changes.size(); ++next_change) {
      const auto& change = input_.segment_changes[next_change];
      if (change.position > up_to_position) break;
      reserved[change.pool] = saturating_add(reserved[change.pool], std::max(change.delta, -kMaxDelta));
      if (envelopes_[change.pool].position != kNoIndex)
        grow(change.pool, state, reserved_target(change.pool));
    }
  };
  for (size_t action = 0; action < actions; ++action) {
    apply_changes(action, action + 1);
    const uint32_t elem = timeline_.action_elem(action);
    const uint32_t p = input_.element_pool[elem];
    if (p != kNoIndex) {
      const uint64_t size = timeline_.element(elem).size;
      if (timeline_.action_is_free(action)) {
        active[p] -= size;
        all_active -= size;
      } else {
        open_envelope(p, elem, action + 1);
        active[p] += size;
        all_active += size;
        grow(p, action + 1, std::max(active[p], reserved_target(p)));
      }
    }
    totals_[action + 1] = timeline_.total_after(action) - all_active + all_height;
  }
  apply_changes(actions, actions);  // segment events after the last action
  totals_[actions] = timeline_.total_at_state(actions) - all_active + all_height;
}

uint64_t PrivatePoolLayout::envelope_bytes(uint32_t pool, size_t state) const {
  const auto& growth = envelopes_[pool].growth;
  const auto after =
      std::upper_bound(growth.begin(), growth.end(), state,
                       [](size_t s, const std::pair<size_t, uint64_t>& g) { return s < g.first; });
  return after == growth.begin() ? 0 : std::prev(after)->second;
}

std::vector<PoolViewItem> PrivatePoolLayout::layout_at(size_t state) const {
  using Kind = PoolViewItem::Kind;
  const std::vector<LiveAllocation> live = timeline_.live_at(state);
  // Pass 1: the stack's own order (allocations outside pools and envelopes), each pool's blocks.
  struct Slot {
    uint32_t elem = kNoIndex, pool = kNoIndex;
    uint64_t size = 0;
  };
  std::vector<Slot> stack;
  std::vector<std::vector<LiveAllocation>> blocks(input_.pools.size());
  size_t next_envelope = 0;
  const auto place_envelopes_below = [&](uint32_t position) {
    for (; next_envelope < by_position_.size(); ++next_envelope) {
      const uint32_t p = by_position_[next_envelope];
      if (envelopes_[p].position > position) break;
      if (envelopes_[p].first_state > state) continue;
      stack.push_back({kNoIndex, p, envelope_bytes(p, state)});
    }
  };
  for (const LiveAllocation& allocation : live) {
    place_envelopes_below(timeline_.stack_position(allocation.elem));
    const uint32_t p = input_.element_pool[allocation.elem];
    if (p != kNoIndex) {
      blocks[p].push_back(allocation);
    } else {
      stack.push_back({allocation.elem, kNoIndex, allocation.size});
    }
  }
  place_envelopes_below(kNoIndex);
  // Pass 2: offsets, each envelope holding its blocks packed from its bottom.
  std::vector<PoolViewItem> out;
  out.reserve(live.size() + by_position_.size());
  uint64_t offset = 0;
  for (const Slot& slot : stack) {
    if (slot.pool == kNoIndex) {
      out.push_back({Kind::Allocation, slot.elem, kNoIndex, offset, slot.size});
      offset += slot.size;
      continue;
    }
    uint64_t filled = 0;
    for (const LiveAllocation& block : blocks[slot.pool]) {
      out.push_back({Kind::Allocation, block.elem, slot.pool, offset + filled, block.size});
      filled += block.size;
    }
    if (slot.size > filled) {
      out.push_back({Kind::PoolInactive, kNoIndex, slot.pool, offset + filled, slot.size - filled});
    }
    offset += std::max(slot.size, filled);
  }
  return out;
}

std::optional<PoolViewItem> PrivatePoolLayout::item_at(size_t state, uint64_t byte) const {
  for (const PoolViewItem& item : layout_at(state)) {
    if (byte < item.offset) return std::nullopt;
    if (byte < item.offset + item.size) return item;
  }
  return std::nullopt;
}

size_t PrivatePoolLayout::memory_bytes() const {
  size_t bytes = totals_.capacity() * sizeof(uint64_t) + input_.element_pool.capacity() * sizeof(uint32_t) +
                 input_.segment_changes.capacity() * sizeof(PrivatePoolInput::SegmentChange);
  for (const Envelope& envelope : envelopes_)
    bytes += envelope.growth.capacity() * sizeof(envelope.growth[0]);
  return bytes;
}

}  // namespace snapscope
