// Collects the shapes of one view in data coordinates, then clips them to the view and converts
// them to view-relative float instances. Runs of columns are merged before they get here
// (RunTracker).
#pragma once

#include <cstdint>
#include <vector>

#include "core/lod/chart_instance.h"
#include "core/lod/chart_view.h"

namespace snapscope {

struct Shape {
  double x0 = 0, x1 = 0;
  double bottom0 = 0, bottom1 = 0;  // bottom edge at x0 and x1 (equal for rectangles)
  double height = 0;
  uint32_t color_key = 0;
  uint32_t elem = kNoIndex;
};

class InstanceCollector {
 public:
  explicit InstanceCollector(const ChartView& view) : view_(view) {}

  void add(const Shape& shape);
  // Clipped, relative to the view origin.
  std::vector<ChartInstance> finish() const;

 private:
  void convert(const Shape& shape, std::vector<ChartInstance>& out) const;

  ChartView view_;
  std::vector<Shape> shapes_;
};

}  // namespace snapscope
