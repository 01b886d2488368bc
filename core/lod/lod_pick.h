// Picking on a built LodFrame: which allocation is drawn under a pixel. Answers come from the
// Timeline itself (the allocation covering the pixel centre in the state the column shows, a
// ramp's slide applied), which is how the builder paints every pixel (row_sampler.h), so both
// agree pixel for pixel at every zoom; above the stack, and in a ramp's gap, there is nothing.
// A frame of the private pools view answers from its PrivatePoolLayout the same way.
#pragma once

#include <cstdint>

#include "core/lod/lod_frame.h"
#include "core/timeline/timeline.h"

namespace snapscope {

enum class PickKind : uint8_t {
  None,
  Allocation,
  PoolInactive,  // a private pool's inactive memory (frames with pools only)
};

struct PickResult {
  PickKind kind = PickKind::None;
  uint32_t elem = kNoIndex;
  size_t state = 0;     // the state whose layout is shown under the pixel
  uint64_t offset = 0;  // bottom of the allocation in that state (before any ramp slide)
  uint64_t size = 0;
  uint32_t pool = kNoIndex;  // the private pool (frames with pools only)
};

// px from the left edge, py from the TOP edge of the chart (mouse convention), in pixels.
PickResult pick_at(const Timeline& timeline, const LodFrame& frame, double px, double py);

}  // namespace snapscope
