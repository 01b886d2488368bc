#include "core/cursor/time_cursor.h"

#include <algorithm>
#include <cmath>

#include "core/analysis/state_mapping.h"

namespace snapscope {

double state_x(const Timeline& timeline, size_t state) {
  if (state >= timeline.action_count()) return static_cast<double>(timeline.timesteps());
  return static_cast<double>(timeline.step_begin(state));
}

size_t nearest_state(const Timeline& timeline, double x) {
  const uint64_t steps = timeline.timesteps();
  if (timeline.action_count() == 0 || steps == 0 || x <= 0) return 0;
  if (x >= static_cast<double>(steps)) return timeline.action_count();
  const size_t action = timeline.action_at_step(static_cast<uint64_t>(std::floor(x)));
  // Action i lies between states i (its left edge) and i + 1 (its right edge).
  const double left = static_cast<double>(timeline.step_begin(action));
  const double right = static_cast<double>(timeline.step_end(action));
  return x - left < right - x ? action : action + 1;
}

size_t large_step(const Timeline& timeline) { return std::max<size_t>(1, timeline.action_count() / 100); }

void TimeCursor::place(const Timeline& timeline, size_t state) {
  state_ = std::min(state, timeline.action_count());
}

void TimeCursor::step(const Timeline& timeline, int64_t delta) {
  const auto from = static_cast<int64_t>(state_.value_or(0));
  const int64_t last = static_cast<int64_t>(timeline.action_count());
  state_ = static_cast<size_t>(std::clamp<int64_t>(from + delta, 0, last));
}

void TimeCursor::peak(const Timeline& timeline) { state_ = peak_state(timeline); }

void TimeCursor::remap(const Timeline& from, const Timeline& to) {
  if (!state_) return;
  const int64_t event = event_of_state(from, std::min(*state_, from.action_count()));
  place(to, event < 0 ? 0 : state_after_event(to, event));
}

}  // namespace snapscope
