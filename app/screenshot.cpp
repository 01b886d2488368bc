#include "app/screenshot.h"

#include <glad/gl.h>

#include <cstring>

#include "render/png_writer.h"

namespace snapscope {

void write_framebuffer_png(const std::string& path, int width, int height) {
  RgbaImage image{width, height,
                  std::vector<uint8_t>(static_cast<size_t>(width) * static_cast<size_t>(height) * 4)};
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadBuffer(GL_BACK);
  glReadPixels(0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, image.pixels.data());
  // GL rows start at the bottom; PNG rows at the top.
  const size_t row = static_cast<size_t>(width) * 4;
  std::vector<uint8_t> swap(row);
  for (int top = 0, bottom = height - 1; top < bottom; ++top, --bottom) {
    uint8_t* a = image.pixels.data() + static_cast<size_t>(top) * row;
    uint8_t* b = image.pixels.data() + static_cast<size_t>(bottom) * row;
    std::memcpy(swap.data(), a, row);
    std::memcpy(a, b, row);
    std::memcpy(b, swap.data(), row);
  }
  write_png(path, image);
}

}  // namespace snapscope
