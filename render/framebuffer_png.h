// GL reads: the current back buffer (or a rectangle of it) and writes it as a PNG.
#pragma once

#include <string>

namespace snapscope {

// A rectangle in framebuffer pixels, y from the top.
struct PixelRect {
  int x = 0, y = 0, width = 0, height = 0;
};

// Throws std::runtime_error when the file cannot be written.
void write_framebuffer_png(const std::string& path, int width, int height);
// Only `rect` (clamped to the framebuffer) of a width x height back buffer.
void write_framebuffer_png(const std::string& path, int width, int height, PixelRect rect);

}  // namespace snapscope
