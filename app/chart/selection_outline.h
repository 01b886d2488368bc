// The selected allocation's outline over its whole lifetime, from memory_viz's polygon (its
// bottom edge; the top is size bytes above), not from the chart's pixels: at the fit view most
// allocations are thinner than a pixel and cover few row centres, yet the selection must show.
// Drawn at least kMinHeightPx tall, dark halo under a colour that is not in the palette.
#pragma once

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "core/timeline/timeline.h"
#include "core/view/view_transform.h"

namespace snapscope {

class SelectionOutline {
 public:
  static constexpr float kMinHeightPx = 4.0f;
  // Lifetimes longer than this many actions are outlined from the chart's pieces instead (the
  // polygon costs O(lifetime actions) on the UI thread).
  static constexpr size_t kMaxLifetimeActions = 2'000'000;

  // False when the polygon is not available for `elem` (too long-lived: use the pieces).
  bool draw(const Timeline& timeline, uint32_t elem, const ViewTransform& view, float chart_x, float chart_y,
            unsigned color);

 private:
  const Timeline* timeline_ = nullptr;
  std::optional<uint32_t> elem_;
  std::vector<std::pair<uint64_t, uint64_t>> bottom_;  // cached polygon of elem_
};

}  // namespace snapscope
