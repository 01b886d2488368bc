#include "core/lod/stack_cursor.h"

#include <algorithm>

namespace snapscope {

StackCursor::StackCursor(const Timeline& timeline, const StateDeltaIndex& deltas)
    : timeline_(timeline), deltas_(deltas), fenwick_(timeline.element_count()) {
  deltas_.for_each_live(0, [&](uint32_t p) { set_live(p, true); });
}

uint64_t StackCursor::size_at(uint32_t position) const {
  return timeline_.element(timeline_.element_at_stack_position(position)).size;
}

void StackCursor::set_live(uint32_t position, bool live) {
  uint64_t size = size_at(position);
  lowest_change_ = std::min(lowest_change_, position);
  fenwick_.add(position, live ? static_cast<int64_t>(size) : -static_cast<int64_t>(size));
  if (size < big_threshold_) return;
  if (live) {
    big_.insert(position);
    big_bytes_ += size;
  } else {
    big_.erase(position);
    big_bytes_ -= size;
  }
}

void StackCursor::move_to(size_t state) {
  deltas_.for_each_change(state_, state, [&](uint32_t p, bool live) { set_live(p, live); });
  state_ = state;
}

void StackCursor::set_big_threshold(uint64_t bytes) {
  if (bytes == big_threshold_) return;
  big_threshold_ = bytes;
  lowest_change_ = 0;
  big_.clear();
  big_bytes_ = 0;
  deltas_.for_each_live(state_, [&](uint32_t p) {
    uint64_t size = size_at(p);
    if (size < big_threshold_) return;
    big_.insert(big_.end(), p);
    big_bytes_ += size;
  });
}

}  // namespace snapscope
