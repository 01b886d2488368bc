#include "core/lod/stack_cursor.h"

#include <algorithm>

namespace snapscope {

StackCursor::StackCursor(const Timeline& timeline, const StateDeltaIndex& deltas)
    : timeline_(timeline),
      deltas_(deltas),
      fenwick_(timeline.element_count()),
      live_(timeline.element_count(), 0) {
  deltas_.for_each_live(0, [&](uint32_t p) { set_live(p, true); });
}

uint64_t StackCursor::size_at(uint32_t position) const {
  return timeline_.element(timeline_.element_at_stack_position(position)).size;
}

void StackCursor::set_live(uint32_t position, bool live) {
  const auto size = static_cast<int64_t>(size_at(position));
  lowest_change_ = std::min(lowest_change_, position);
  live_[position] = live ? 1 : 0;
  fenwick_.add(position, live ? size : -size);
}

void StackCursor::move_to(size_t state) {
  deltas_.for_each_change(state_, state, [&](uint32_t p, bool live) { set_live(p, live); });
  state_ = state;
}

}  // namespace snapscope
