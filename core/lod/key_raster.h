// CPU rasterisation of a frame into one colour key per pixel, made on the LOD worker
// so the UI thread uploads one texture instead of drawing tens of thousands of instances
// (llvmpipe draws about 2M small instances per second). Coverage follows the GPU's rule for
// rectangles: a pixel is painted when its centre lies inside, and later instances paint over
// earlier ones, exactly as the instanced draw does.
#pragma once

#include <cstdint>
#include <vector>

#include "core/lod/lod_frame.h"

namespace snapscope {

inline constexpr uint32_t kBackgroundKey = 0xFFFFFFFEu;  // no instance covers the pixel

// Keys of frame.view.width x frame.view.height pixels, bottom row first; empty when the frame has
// a sloped instance (memory_viz ramps are left to the GPU).
std::vector<uint32_t> rasterize_keys(const LodFrame& frame);

}  // namespace snapscope
