#include "app/screenshot.h"

#include <glad/gl.h>
#include <stb_image_write.h>

#include <stdexcept>
#include <vector>

namespace snapscope {

void write_framebuffer_png(const std::string& path, int width, int height) {
  std::vector<unsigned char> pixels(static_cast<size_t>(width) * static_cast<size_t>(height) * 4);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadBuffer(GL_BACK);
  glReadPixels(0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, pixels.data());
  stbi_flip_vertically_on_write(1);  // GL rows start at the bottom
  if (stbi_write_png(path.c_str(), width, height, 4, pixels.data(), width * 4) == 0) {
    throw std::runtime_error(path + ": cannot write PNG");
  }
}

}  // namespace snapscope
