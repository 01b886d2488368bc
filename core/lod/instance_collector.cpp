#include "core/lod/instance_collector.h"

#include <algorithm>

namespace snapscope {

void InstanceCollector::add(const Shape& shape) {
  if (shape.height <= 0 || shape.x1 <= shape.x0) return;
  shapes_.push_back(shape);
}

// Clips to the view plus a margin of one view size (so edges stay off screen) and shifts to the
// view origin. Far-off values would otherwise lose all float precision near the view.
void InstanceCollector::convert(const Shape& shape, std::vector<ChartInstance>& out) const {
  double width = view_.x1 - view_.x0, span = view_.y1 - view_.y0;
  double x0 = std::max(shape.x0, view_.x0 - width), x1 = std::min(shape.x1, view_.x1 + width);
  if (x1 <= x0) return;
  double slope = (shape.bottom1 - shape.bottom0) / (shape.x1 - shape.x0);
  double b0 = shape.bottom0 + slope * (x0 - shape.x0), b1 = shape.bottom0 + slope * (x1 - shape.x0);
  double h = shape.height;
  double lowest = view_.y0 - span, highest = view_.y1 + span;
  // Moving the bottom edge up (or the top edge down) in parallel keeps what is visible.
  double raise = lowest - std::max(b0, b1);
  if (raise > 0) {
    b0 += raise;
    b1 += raise;
    h -= raise;
  }
  double lower = std::min(b0, b1) + h - highest;
  if (lower > 0) h -= lower;
  if (h <= 0 || std::min(b0, b1) >= highest) return;
  ChartInstance instance;
  instance.x0 = static_cast<float>(x0 - view_.x0);
  instance.x1 = static_cast<float>(x1 - view_.x0);
  instance.bottom0 = static_cast<float>(b0 - view_.y0);
  instance.bottom1 = static_cast<float>(b1 - view_.y0);
  instance.height = static_cast<float>(h);
  instance.color_key = shape.color_key;
  instance.elem = shape.elem;
  out.push_back(instance);
}

std::vector<ChartInstance> InstanceCollector::finish() const {
  std::vector<ChartInstance> out;
  out.reserve(shapes_.size());
  for (const Shape& shape : shapes_) convert(shape, out);
  return out;
}

}  // namespace snapscope
