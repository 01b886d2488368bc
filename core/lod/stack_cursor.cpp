#include "core/lod/stack_cursor.h"

#include <algorithm>

namespace snapscope {

StackCursor::StackCursor(const Timeline& timeline, const StateDeltaIndex& deltas)
    : timeline_(timeline),
      deltas_(deltas),
      block_bytes_((timeline.element_count() + kBlock - 1) / kBlock),
      live_(timeline.element_count(), 0) {
  deltas_.for_each_live(0, [&](uint32_t p) { set_live(p, true); });
}

uint64_t StackCursor::size_at(uint32_t position) const { return timeline_.size_at_stack_position(position); }

uint64_t StackCursor::offset_of(uint32_t position) const {
  const uint32_t block = position / kBlock;
  uint64_t bytes = block_bytes_.bytes_below(block);
  for (uint32_t p = block * kBlock; p < position; ++p) bytes += live_bytes_at(p);
  return bytes;
}

StackCover StackCursor::covering(uint64_t offset) const {
  const StackCover block = block_bytes_.covering(offset);
  if (block.position >= block_bytes_.size()) return {position_count(), block.bytes_below};
  uint64_t below = block.bytes_below;  // offset - below < the block's live bytes
  const uint32_t end = std::min<uint32_t>(position_count(), (block.position + 1) * kBlock);
  for (uint32_t p = block.position * kBlock; p < end; ++p) {
    const uint64_t bytes = live_bytes_at(p);
    if (below + bytes > offset) return {p, below};
    below += bytes;
  }
  return {end, below};  // not reached while the blocks' sums match the positions'
}

void StackCursor::set_live(uint32_t position, bool live) {
  const auto size = static_cast<int64_t>(size_at(position));
  lowest_change_ = std::min(lowest_change_, position);
  live_[position] = live ? 1 : 0;
  block_bytes_.add(position / kBlock, live ? size : -size);
}

void StackCursor::move_to(size_t state) {
  deltas_.for_each_change(state_, state, [&](uint32_t p, bool live) { set_live(p, live); });
  state_ = state;
}

}  // namespace snapscope
