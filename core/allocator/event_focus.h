// The raw event the allocator panels show. The one time cursor is a state of the shown timeline,
// i.e. an alloc or free; events between two such actions (free_requested, segment events, oom)
// belong to the same state. EventFocus remembers which of them the user stepped to, as a
// refinement of the cursor (not a second cursor): it is dropped as soon as the cursor moves away.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>

#include "core/timeline/timeline.h"

namespace snapscope {

class EventFocus {
 public:
  // The event shown for cursor state `state`: the refinement if it still belongs to that state,
  // else the event of the action that produced the state (-1: before the first event).
  int64_t event(const Timeline& timeline, size_t state) const;
  // Focuses raw event `event` (clamped to [-1, event_count - 1]); returns the state the cursor
  // must be placed at.
  size_t focus(const Timeline& timeline, int64_t event, size_t event_count);
  void clear() { refined_.reset(); }

 private:
  std::optional<int64_t> refined_;
};

}  // namespace snapscope
