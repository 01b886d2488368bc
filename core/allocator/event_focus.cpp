#include "core/allocator/event_focus.h"

#include <algorithm>

#include "core/analysis/state_mapping.h"

namespace snapscope {

int64_t EventFocus::event(const Timeline& timeline, size_t state) const {
  if (refined_ && state_after_event(timeline, *refined_) == state) return *refined_;
  return event_of_state(timeline, state);
}

size_t EventFocus::focus(const Timeline& timeline, int64_t event, size_t event_count) {
  refined_ = std::clamp<int64_t>(event, -1, static_cast<int64_t>(event_count) - 1);
  return state_after_event(timeline, *refined_);
}

}  // namespace snapscope
