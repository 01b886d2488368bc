// The visible window of the timeline chart: a data rectangle (x in memory_viz timesteps, or in
// the axis units of a TimeWarp when the chart is linear in wall-clock time: see LodBuilder::build;
// y in bytes) mapped onto a viewport of width x height pixels. Row 0 is the BOTTOM row.
#pragma once

#include <cmath>

namespace snapscope {

struct ChartView {
  double x0 = 0.0, x1 = 1.0;  // timesteps (or warp axis units), x0 < x1
  double y0 = 0.0, y1 = 1.0;  // bytes, y0 < y1
  int width = 1, height = 1;  // pixels, both > 0

  double steps_per_px() const { return (x1 - x0) / width; }
  double bytes_per_px() const { return (y1 - y0) / height; }
  // Centre of a pixel in data coordinates (px from the left, row from the bottom).
  double x_at_pixel_centre(double px) const { return x0 + (std::floor(px) + 0.5) * steps_per_px(); }
  double y_at_row_centre(double row) const { return y0 + (std::floor(row) + 0.5) * bytes_per_px(); }
  bool operator==(const ChartView&) const = default;
};

}  // namespace snapscope
