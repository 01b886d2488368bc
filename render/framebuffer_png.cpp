#include "render/framebuffer_png.h"

#include <glad/gl.h>

#include <algorithm>
#include <cstring>

#include "render/png_writer.h"

namespace snapscope {

void write_framebuffer_png(const std::string& path, int width, int height) {
  write_framebuffer_png(path, width, height, PixelRect{0, 0, width, height});
}

void write_framebuffer_png(const std::string& path, int framebuffer_width, int framebuffer_height,
                           PixelRect rect) {
  rect.x = std::clamp(rect.x, 0, framebuffer_width);
  rect.y = std::clamp(rect.y, 0, framebuffer_height);
  const int width = std::clamp(rect.width, 1, std::max(1, framebuffer_width - rect.x));
  const int height = std::clamp(rect.height, 1, std::max(1, framebuffer_height - rect.y));
  RgbaImage image{width, height,
                  std::vector<uint8_t>(static_cast<size_t>(width) * static_cast<size_t>(height) * 4)};
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadBuffer(GL_BACK);
  // GL's origin is the bottom-left corner.
  glReadPixels(rect.x, framebuffer_height - rect.y - height, width, height, GL_RGBA, GL_UNSIGNED_BYTE,
               image.pixels.data());
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
