#include "core/lod/key_raster.h"

#include <algorithm>
#include <cmath>

namespace snapscope {
namespace {

// Pixels whose centre lies in [from, to) (pixel units), clamped to [0, size).
std::pair<int, int> covered(double from, double to, int size) {
  const double first = std::ceil(from - 0.5), end = std::ceil(to - 0.5);
  return {static_cast<int>(std::clamp(first, 0.0, static_cast<double>(size))),
          static_cast<int>(std::clamp(end, 0.0, static_cast<double>(size)))};
}

}  // namespace

std::vector<uint32_t> rasterize_keys(const LodFrame& frame) {
  const ChartView& view = frame.view;
  for (const ChartInstance& shape : frame.instances) {
    if (shape.bottom0 != shape.bottom1) return {};
  }
  const auto width = static_cast<size_t>(view.width);
  std::vector<uint32_t> keys(width * static_cast<size_t>(view.height), kBackgroundKey);
  const double px_per_step = view.width / (view.x1 - view.x0),
               px_per_byte = view.height / (view.y1 - view.y0);
  for (const ChartInstance& shape : frame.instances) {
    const auto [x0, x1] = covered(shape.x0 * px_per_step, shape.x1 * px_per_step, view.width);
    const auto [y0, y1] =
        covered(shape.bottom0 * px_per_byte,
                (static_cast<double>(shape.bottom0) + shape.height) * px_per_byte, view.height);
    if (x0 >= x1) continue;
    const uint32_t key = shape.color_key;
    for (int row = y0; row < y1; ++row) {
      uint32_t* line = keys.data() + static_cast<size_t>(row) * width;
      std::fill(line + x0, line + x1, key);
    }
  }
  return keys;
}

}  // namespace snapscope
