#include "core/cursor/cursor_readout.h"

#include <algorithm>

#include "core/analysis/state_mapping.h"

namespace snapscope {
namespace {

// The state of `timeline` at the moment `state` of `shown` stands for.
size_t same_moment(const Timeline& shown, size_t state, int64_t event, const Timeline& timeline) {
  if (&timeline == &shown) return state;
  return event < 0 ? 0 : state_after_event(timeline, event);
}

std::optional<int64_t> time_of(const Timeline& shown, size_t state) {
  const ActionTimes& times = shown.input().action_time_us;
  if (state == 0 || state > times.size() || times[state - 1] == kNoTime) return std::nullopt;
  return times[state - 1];
}

std::optional<int64_t> first_time(const Timeline& shown) {
  for (int64_t time : shown.input().action_time_us) {
    if (time != kNoTime) return time;
  }
  return std::nullopt;
}

}  // namespace

CursorReadout read_cursor(const Timeline& shown, const Timeline& blocks, const ReservedSeries& reserved,
                          size_t state) {
  CursorReadout readout;
  readout.state = std::min(state, shown.action_count());
  readout.event = event_of_state(shown, readout.state);
  readout.time_us = time_of(shown, readout.state);
  if (const auto start = first_time(shown); readout.time_us && start)
    readout.elapsed_us = *readout.time_us - *start;
  readout.allocated_bytes = blocks.total_at_state(same_moment(shown, readout.state, readout.event, blocks));
  readout.reserved_bytes = reserved.after_event(readout.event);
  return readout;
}

}  // namespace snapscope
