// Collects the shapes of one view in data coordinates (merging aggregated fill that continues the
// previous one unchanged), then clips them to the view and converts them to view-relative float
// instances. Runs of individual allocations are merged before they get here (RunTracker).
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
  uint32_t elem = kAggregateElem;
};

class InstanceCollector {
 public:
  explicit InstanceCollector(const ChartView& view) : view_(view) {}

  void add(const Shape& shape);
  size_t aggregate_count() const { return aggregates_.size(); }
  // Aggregates first, then individual allocations; clipped, relative to the view origin.
  std::vector<ChartInstance> finish() const;

 private:
  static bool continues(const Shape& previous, const Shape& next);
  void convert(const Shape& shape, std::vector<ChartInstance>& out) const;

  ChartView view_;
  std::vector<Shape> aggregates_, allocations_;
  size_t last_aggregate_ = kNoIndex;
};

}  // namespace snapscope
