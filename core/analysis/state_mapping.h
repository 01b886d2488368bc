// Conversions between raw trace event indices and Timeline states (state s = memory after the
// first s actions). Every analysis view is "at a state"; users speak in events or "at peak".
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>

#include "core/timeline/timeline.h"

namespace snapscope {

// The state after every action whose raw event index is <= event (event -1: state 0, or 1 for a
// synthetic action, which happens before any event).
size_t state_after_event(const Timeline& timeline, int64_t event);

// The raw event of the action that produced `state`; -1 for state 0 and synthetic actions.
int64_t event_of_state(const Timeline& timeline, size_t state);

// The state whose live bytes are memory_viz's peak (Timeline::peak_bytes): after the peak action
// if it allocates, before it if it frees (a free still shows the freed block during its steps).
size_t peak_state(const Timeline& timeline);
// The state memory_viz draws at timestep x (clamped): the larger of the totals around the action
// whose steps hold x. What a chart column at x shows.
size_t state_shown_at(const Timeline& timeline, double x);

// The timesteps [begin, end) that raw events first..last (inclusive) are drawn in: from the first
// action at or after `first` to the last action at or before `last` (the nearest action when no
// action falls inside). Both 0 for a timeline without actions.
std::pair<uint64_t, uint64_t> event_steps(const Timeline& timeline, int64_t first, int64_t last);

}  // namespace snapscope
