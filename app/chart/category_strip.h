// "Colour by category": the legend (each category's colour and its bytes at the cursor, or at
// the peak before a cursor is placed) and the stacked-area strip of every category's bytes over
// the time in view, aligned with the chart above it.
#pragma once

#include <cstdint>
#include <vector>

#include "core/session/session.h"

namespace snapscope {

float category_view_height();

class CategoryStrip {
 public:
  // `left`: the chart's axis margin, so the strip's x matches the chart's.
  void draw(Session& session, float left, float width);

 private:
  struct Key {
    const SessionCategories* categories = nullptr;
    double x0 = 0, x1 = 0;
    int columns = 0;
    const TimeWarp* warp = nullptr;
    bool operator==(const Key&) const = default;
  };
  // `edges`: the timesteps at the columns' edges (ViewTransform::column_edges).
  void refresh(const Key& key, const std::vector<double>& edges);

  Key key_;
  std::vector<uint64_t> column_bytes_;  // columns x categories, row-major
  std::vector<uint64_t> scratch_;
};

}  // namespace snapscope
