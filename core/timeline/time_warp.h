// A monotone map between memory_viz timesteps and a wall-clock axis, for a chart whose x is
// linear in time. The axis unit is the microsecond since the first timed action: each action's
// first step sits at its time and the steps in between are interpolated, so equal times take
// equal widths whatever the number of events in them.
//
// Actions recorded in the same microsecond would collapse onto one x and make the map
// impossible to invert (a click could not name a step), so every step also adds a sliver of
// axis, 1e-4 of the mean time per step: the axis stays linear in time to within 0.01 % of the
// run's length, and a burst can still be zoomed into.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

namespace snapscope {

class Timeline;

class TimeWarp {
 public:
  // Null when the trace has no timestamps. Untimed actions take the time before them; times
  // that run backwards (a hostile or clock-skewed file) are held at the latest one so far.
  static std::shared_ptr<const TimeWarp> build(const Timeline& timeline);

  // Both clamp to the timeline: steps [0, timesteps()], axis [0, axis_end()].
  double axis_at(double step) const;
  double step_at(double axis) const;
  double axis_end() const { return knot_axis_.back(); }

  // Microseconds since the first timed action at a step, and the first step that reaches a
  // time (the last step when none does).
  double time_at(double step) const { return axis_at(step) - sliver_ * clamp_step(step); }
  double step_at_time(double time_us) const;

  size_t memory_bytes() const;

 private:
  TimeWarp() = default;
  double clamp_step(double step) const;

  // Knot k: action k's first step (k < actions) or the end of the timeline (k = actions).
  std::vector<uint32_t> knot_step_;
  std::vector<double> knot_axis_;
  double sliver_ = 0;  // axis per step on top of the time
};

}  // namespace snapscope
