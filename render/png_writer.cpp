#include "render/png_writer.h"

#include <stb_image_write.h>

#include <stdexcept>

namespace snapscope {

void write_png(const std::string& path, const RgbaImage& image) {
  if (image.width <= 0 || image.height <= 0 ||
      image.pixels.size() != static_cast<size_t>(image.width) * static_cast<size_t>(image.height) * 4) {
    throw std::runtime_error(path + ": no image to write");
  }
  if (stbi_write_png(path.c_str(), image.width, image.height, 4, image.pixels.data(), image.width * 4) == 0) {
    throw std::runtime_error(path + ": cannot write PNG");
  }
}

}  // namespace snapscope
