// One drawn shape of the timeline chart: a rectangle or a memory_viz ramp (trapezoid whose bottom
// edge goes from bottom0 at x0 to bottom1 at x1, constant height). Coordinates are data units
// relative to the view origin (x - view.x0, y - view.y0) so that float precision suffices.
#pragma once

#include <cstdint>

#include "core/snapshot/model.h"

namespace snapscope {

// Marks instances that stand for the aggregated fill of allocations smaller than one pixel.
inline constexpr uint32_t kAggregateElem = kNoIndex;
inline constexpr uint32_t kAggregateColorKey = kNoIndex;

struct ChartInstance {
  float x0 = 0.0f, x1 = 0.0f;
  float bottom0 = 0.0f, bottom1 = 0.0f;
  float height = 0.0f;
  uint32_t color_key = 0;          // palette index (mod palette size), or kAggregateColorKey
  uint32_t elem = kAggregateElem;  // the allocation drawn, or kAggregateElem
  bool is_aggregate() const { return elem == kAggregateElem; }
};
static_assert(sizeof(ChartInstance) == 28, "the renderer streams this layout as is");

}  // namespace snapscope
