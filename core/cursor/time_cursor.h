// The one time cursor every analysis panel follows: a Timeline state (memory after the first s
// actions), moved by clicks, arrow keys and "jump to peak". On the chart a state is the boundary
// between two actions' steps, so it maps to one x (timestep) and back.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>

#include "core/timeline/timeline.h"

namespace snapscope {

// x (in memory_viz timesteps) where state s is drawn: where action s begins, or the right edge
// for the final state.
double state_x(const Timeline& timeline, size_t state);
// The state drawn closest to x (clamped to the chart).
size_t nearest_state(const Timeline& timeline, double x);
// Shift+arrow step: 1% of the trace, at least one action.
size_t large_step(const Timeline& timeline);

class TimeCursor {
 public:
  bool placed() const { return state_.has_value(); }
  // Requires placed().
  size_t state() const { return *state_; }
  void clear() { state_.reset(); }

  void place(const Timeline& timeline, size_t state);  // clamped to [0, action_count()]
  void place_at_x(const Timeline& timeline, double x) { place(timeline, nearest_state(timeline, x)); }
  // Moves by `delta` states (clamped); an unplaced cursor starts from state 0.
  void step(const Timeline& timeline, int64_t delta);
  void home(const Timeline& timeline) { place(timeline, 0); }
  void end(const Timeline& timeline) { place(timeline, timeline.action_count()); }
  void peak(const Timeline& timeline);  // memory_viz's peak (state_mapping.h peak_state)
  // Keeps the cursor at the same raw event when the shown timeline changes (blocks/segments).
  void remap(const Timeline& from, const Timeline& to);

 private:
  std::optional<size_t> state_;
};

}  // namespace snapscope
