// Fitting the chart's y range to the time range in view, as memory_viz does when zooming: from 0
// (or, with the floor raised, from the lowest total in view) to a little above the highest
// total in view, so the part of the stack that changes fills the chart at every zoom.
#pragma once

#include "core/timeline/memory_pyramid.h"
#include "core/timeline/timeline.h"
#include "core/view/view_transform.h"

namespace snapscope {

struct YFitSettings {
  bool enabled = true;       // zooming or panning time re-fits y (toggle: key Y)
  bool raise_floor = false;  // y starts at the lowest total in view (key L)
  uint64_t at_least = 0;     // y reaches at least this many bytes (a compared run's peak)
};

inline constexpr double kYFitHeadroom = 0.05;  // room above the highest total, as a fraction

// `visible` with y fitted to the totals over its x range (unchanged when the range holds no
// step). Byte range [lowest, highest] of what is shown: highest is the max total, lowest 0 or
// the min total.
DataRect fit_y(const DataRect& visible, const Timeline& timeline, const MemoryPyramid& pyramid,
               bool raise_floor);
// The same for an explicit byte range (zoom to an allocation): a little room above and below.
DataRect frame_bytes(const DataRect& visible, double lowest, double highest);

}  // namespace snapscope
