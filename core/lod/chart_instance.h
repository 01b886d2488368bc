// One drawn shape of the timeline chart: a rectangle of whole pixel rows painted by one allocation
// (a trapezoid when bottom0 != bottom1: its bottom edge goes from bottom0 at x0 to bottom1 at x1,
// constant height). Coordinates are data units relative to the view origin (x - view.x0,
// y - view.y0) so that float precision suffices.
#pragma once

#include <cstdint>

#include "core/snapshot/model.h"

namespace snapscope {

struct ChartInstance {
  float x0 = 0.0f, x1 = 0.0f;
  float bottom0 = 0.0f, bottom1 = 0.0f;
  float height = 0.0f;
  uint32_t color_key = 0;    // palette index (mod palette size)
  uint32_t elem = kNoIndex;  // the allocation drawn
};
static_assert(sizeof(ChartInstance) == 28, "the renderer streams this layout as is");

}  // namespace snapscope
