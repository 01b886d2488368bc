#include "core/view/y_fit.h"

#include <algorithm>
#include <cmath>

namespace snapscope {

DataRect frame_bytes(const DataRect& visible, double lowest, double highest) {
  DataRect framed = visible;
  const double span = std::max(highest - lowest, ViewTransform::kMinSpanY);
  framed.y0 = std::max(0.0, lowest - span * kYFitHeadroom);
  framed.y1 = highest + span * kYFitHeadroom;
  if (lowest <= 0) framed.y0 = 0;  // the chart's base stays on the axis
  return framed;
}

DataRect fit_y(const DataRect& visible, const Timeline& timeline, const MemoryPyramid& pyramid,
               bool raise_floor) {
  const auto steps = static_cast<double>(timeline.timesteps());
  const double first = std::max(visible.x0, 0.0), last = std::min(visible.x1, steps);
  if (steps <= 0 || last <= first) return visible;
  const auto first_step = static_cast<uint64_t>(std::floor(first));
  const auto last_step = static_cast<uint64_t>(std::max(std::ceil(last) - 1.0, std::floor(first)));
  const MemoryExtent extent = pyramid.over_steps(first_step, last_step);
  if (extent.max_bytes == 0) return visible;
  const double lowest = raise_floor ? static_cast<double>(extent.min_bytes) : 0.0;
  return frame_bytes(visible, lowest, static_cast<double>(extent.max_bytes));
}

}  // namespace snapscope
