// Writes an RGBA image (top row first) as PNG.
#pragma once

#include <string>

#include "render/chart_renderer.h"

namespace snapscope {

// Through OutputFile (whole or not at all). Throws std::runtime_error naming the path when the
// file cannot be written.
void write_png(const std::string& path, const RgbaImage& image);

}  // namespace snapscope
