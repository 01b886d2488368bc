// Both timelines of a device walked together in raw-event order: after each alloc/free (block
// timeline) or segment alloc/free (segment timeline), the allocated total and the reserved bytes
// (ReservedSeries, so segment_map / unmap in between count). The timeline-json and chrome-trace
// exports are this walk written out.
#pragma once

#include <cstdint>

#include "core/timeline/reserved_series.h"
#include "core/timeline/timeline.h"

namespace snapscope {

struct UsageStep {
  bool segment = false;  // an action of the segment timeline, else of the block timeline
  size_t action = 0;     // index in its timeline
  int64_t event = -1;    // raw trace event; -1 for a synthetic action
  int64_t time_us = kNoTime;
  uint64_t allocated = 0;  // block timeline total after this step
  uint64_t reserved = 0;   // ReservedSeries after this step's event
};

// Calls visit(const UsageStep&) for every action of both timelines, by event; a block action
// comes first when both share an event.
template <typename Visit>
void walk_usage(const Timeline& blocks, const Timeline& segments, const ReservedSeries& reserved,
                Visit&& visit) {
  size_t b = 0, s = 0;
  while (b < blocks.action_count() || s < segments.action_count()) {
    const bool take_segment =
        b == blocks.action_count() ||
        (s < segments.action_count() && segments.action_event(s) < blocks.action_event(b));
    const Timeline& timeline = take_segment ? segments : blocks;
    size_t& action = take_segment ? s : b;
    UsageStep step;
    step.segment = take_segment;
    step.action = action;
    step.event = timeline.action_event(action);
    const auto& times = timeline.input().action_time_us;
    step.time_us = action < times.size() ? times[action] : kNoTime;
    ++action;
    step.allocated = blocks.total_at_state(b);
    step.reserved = reserved.after_event(step.event);
    visit(step);
  }
}

}  // namespace snapscope
