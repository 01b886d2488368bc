#include "core/lod/pool_stack_cursor.h"

namespace snapscope {

PoolStackCursor::PoolStackCursor(const PrivatePoolLayout& layout, const StateDeltaIndex& deltas)
    : layout_(layout),
      timeline_(layout.timeline()),
      deltas_(deltas),
      stack_(timeline_.element_count()),
      member_index_(timeline_.element_count(), kNoIndex),
      members_(layout.pool_count()),
      pool_active_(layout.pool_count(), 0),
      envelope_(layout.pool_count(), 0) {
  for (uint32_t position = 0; position < timeline_.stack_size(); ++position) {
    const uint32_t elem = timeline_.element_at_stack_position(position);
    const uint32_t pool = layout.pool_of(elem);
    if (pool == kNoIndex) continue;
    member_index_[elem] = static_cast<uint32_t>(members_[pool].size());
    members_[pool].push_back(elem);
  }
  pool_blocks_.reserve(members_.size());
  for (const auto& members : members_) pool_blocks_.emplace_back(members.size());
  deltas_.for_each_live(0, [&](uint32_t position) { set_live(position, true); });
  sync_envelopes();
}

void PoolStackCursor::set_live(uint32_t position, bool live) {
  const uint32_t elem = timeline_.element_at_stack_position(position);
  const auto size = static_cast<int64_t>(timeline_.element(elem).size);
  const int64_t delta = live ? size : -size;
  const uint32_t pool = layout_.pool_of(elem);
  if (pool == kNoIndex) {
    stack_.add(position, delta);
    return;
  }
  pool_blocks_[pool].add(member_index_[elem], delta);
  pool_active_[pool] += static_cast<uint64_t>(delta);
}

void PoolStackCursor::sync_envelopes() {
  for (uint32_t pool : layout_.envelopes_by_position()) {
    const uint64_t height = layout_.envelope_bytes(pool, state_);
    if (height == envelope_[pool]) continue;
    stack_.add(layout_.envelope_position(pool),
               static_cast<int64_t>(height) - static_cast<int64_t>(envelope_[pool]));
    envelope_[pool] = height;
  }
}

void PoolStackCursor::move_to(size_t state) {
  deltas_.for_each_change(state_, state, [&](uint32_t p, bool live) { set_live(p, live); });
  state_ = state;
  sync_envelopes();
}

std::optional<PoolStackHit> PoolStackCursor::item_at(uint64_t byte) const {
  using Kind = PoolViewItem::Kind;
  if (byte >= total()) return std::nullopt;
  const auto [position, below] = stack_.covering(byte);
  if (position >= timeline_.stack_size()) return std::nullopt;
  const uint32_t elem = timeline_.element_at_stack_position(position);
  const uint32_t pool = layout_.pool_of(elem);
  // Sort keys: 2 x stack position for an allocation, one more than its envelope's for a pool's
  // inactive part.
  if (pool == kNoIndex) {
    return PoolStackHit{{Kind::Allocation, elem, kNoIndex, below, timeline_.element(elem).size},
                        2 * position};
  }
  // Only an envelope's position carries weight among a pool's positions.
  const uint64_t inside = byte - below;
  if (inside >= pool_active_[pool]) {
    const uint64_t top = below + pool_active_[pool];
    return PoolStackHit{{Kind::PoolInactive, kNoIndex, pool, top, envelope_[pool] - pool_active_[pool]},
                        2 * position + 1};
  }
  const StackFenwick& blocks = pool_blocks_[pool];
  const StackCover member = blocks.covering(inside);
  const uint32_t block = members_[pool][member.position];
  return PoolStackHit{
      {Kind::Allocation, block, pool, below + member.bytes_below, timeline_.element(block).size},
      2 * timeline_.stack_position(block)};
}

}  // namespace snapscope
