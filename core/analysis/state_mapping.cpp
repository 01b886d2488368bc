#include "core/analysis/state_mapping.h"

#include <algorithm>

namespace snapscope {

size_t state_after_event(const Timeline& timeline, int64_t event) {
  return timeline.actions_through_event(event);
}

int64_t event_of_state(const Timeline& timeline, size_t state) {
  return state == 0 ? -1 : timeline.action_event(state - 1);
}

size_t state_shown_at(const Timeline& timeline, double x) {
  const uint64_t steps = timeline.timesteps();
  if (steps == 0) return 0;
  const auto step = static_cast<uint64_t>(std::clamp(x, 0.0, static_cast<double>(steps - 1)));
  const size_t action = timeline.action_at_step(step);
  return timeline.total_after(action) >= timeline.total_before(action) ? action + 1 : action;
}

std::pair<uint64_t, uint64_t> event_steps(const Timeline& timeline, int64_t first, int64_t last) {
  const size_t actions = timeline.action_count();
  if (actions == 0) return {0, 0};
  // Actions before `first` are state_after_event(first - 1) many; actions up to `last` likewise.
  const size_t begin_action = std::min(state_after_event(timeline, first - 1), actions - 1);
  const size_t end_state = std::max(state_after_event(timeline, last), begin_action + 1);
  return {timeline.step_begin(begin_action), timeline.step_end(std::min(end_state, actions) - 1)};
}

size_t peak_state(const Timeline& timeline) {
  if (timeline.action_count() == 0) return 0;
  const size_t action = timeline.peak_action();
  return timeline.total_after(action) >= timeline.total_before(action) ? action + 1 : action;
}

}  // namespace snapscope
