// Reads the current back buffer and writes it as a PNG.
#pragma once

#include <string>

namespace snapscope {

// Throws std::runtime_error when the file cannot be written.
void write_framebuffer_png(const std::string& path, int width, int height);

}  // namespace snapscope
