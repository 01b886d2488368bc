// X-axis ticks of a timeline: positions are memory_viz timesteps, labels are the trace event
// index of the action drawn there, or its wall-clock time relative to the first timed action.
#pragma once

#include <optional>
#include <vector>

#include "core/timeline/timeline.h"
#include "core/view/axis_ticks.h"

namespace snapscope {

// Trace event index and time_us (kNoTime if unknown) of the action drawn at `step`.
int64_t event_at_step(const Timeline& timeline, double step);
int64_t time_at_step(const Timeline& timeline, double step);
// The first action time present in the trace; nullopt without timestamps.
std::optional<int64_t> first_time_us(const Timeline& timeline);

std::vector<Tick> step_axis_ticks(const Timeline& timeline, double lo, double hi, int max_ticks,
                                  bool wall_clock);

}  // namespace snapscope
