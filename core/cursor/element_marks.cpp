#include "core/cursor/element_marks.h"

#include <algorithm>
#include <cmath>

namespace snapscope {

void ElementMarks::assign(size_t element_count, std::span<const uint32_t> elements) {
  bits_.assign(element_count, false);
  elements_.clear();
  for (uint32_t elem : elements) {
    if (elem < element_count && !bits_[elem]) {
      bits_[elem] = true;
      elements_.push_back(elem);
    }
  }
  count_ = elements_.size();
}

void ElementMarks::clear() {
  bits_.clear();
  elements_.clear();
  count_ = 0;
}

uint32_t heat_color(double share) {
  const double t = std::sqrt(std::clamp(share, 0.0, 1.0));
  const auto channel = [](double from, double to, double at) {
    return static_cast<uint32_t>(std::lround(from + (to - from) * at));
  };
  // Blue (70, 110, 235) -> red (235, 60, 50).
  return channel(70, 235, t) << 16 | channel(110, 60, t) << 8 | channel(235, 50, t);
}

}  // namespace snapscope
