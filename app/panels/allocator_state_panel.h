// memory_viz's allocator state view: segments packed in rows, blocks colored inside them, free
// space left dark, rounding waste (size - requested) and blocks pending a free on another stream
// highlighted, with allocated vs reserved totals and tooltips.
#pragma once

#include <cstdint>

#include "core/allocator/allocator_state.h"
#include "core/allocator/segment_layout.h"

namespace snapscope {

class AllocatorStatePanel {
 public:
  void draw(const AllocatorState& state, const SegmentLayout& layout, int64_t event, double compute_ms);

 private:
  void draw_totals(const AllocatorState& state, const SegmentLayout& layout, int64_t event,
                   double compute_ms) const;
  void draw_segments(const SegmentLayout& layout) const;
  void draw_tooltip(const SegmentLayout& layout, float x0, float y0, float scale, float row_height) const;
};

}  // namespace snapscope
