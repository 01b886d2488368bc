// X-axis ticks of a timeline: positions are memory_viz timesteps, labels are the trace event
// index of the action drawn there; or, on a time-linear chart (TimeWarp), round wall-clock times
// relative to the first timed action, placed where the trace reaches them.
#pragma once

#include <optional>
#include <vector>

#include "core/timeline/time_warp.h"
#include "core/timeline/timeline.h"
#include "core/view/axis_ticks.h"

namespace snapscope {

// Trace event index and time_us (kNoTime if unknown) of the action drawn at `step`.
int64_t event_at_step(const Timeline& timeline, double step);
int64_t time_at_step(const Timeline& timeline, double step);
// The first action time present in the trace; nullopt without timestamps.
std::optional<int64_t> first_time_us(const Timeline& timeline);

// `warp` (optional): the chart is linear in its time; without one, `wall_clock` labels evenly
// spaced steps with their times.
std::vector<Tick> step_axis_ticks(const Timeline& timeline, double lo, double hi, int max_ticks,
                                  bool wall_clock, const TimeWarp* warp = nullptr);
// Round times in [time_at(lo), time_at(hi)], at the steps that reach them.
std::vector<Tick> time_axis_ticks(const TimeWarp& warp, double lo, double hi, int max_ticks);

}  // namespace snapscope
