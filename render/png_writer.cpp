#include "render/png_writer.h"

#include <stb_image_write.h>

#include <stdexcept>
#include <string>

#include "core/util/output_file.h"

namespace snapscope {

void write_png(const std::string& path, const RgbaImage& image) {
  if (image.width <= 0 || image.height <= 0 ||
      image.pixels.size() != static_cast<size_t>(image.width) * static_cast<size_t>(image.height) * 4) {
    throw std::runtime_error(path + ": no image to write");
  }
  std::string png;
  const auto append = [](void* context, void* data, int size) {
    static_cast<std::string*>(context)->append(static_cast<const char*>(data), static_cast<size_t>(size));
  };
  if (stbi_write_png_to_func(append, &png, image.width, image.height, 4, image.pixels.data(),
                             image.width * 4) == 0) {
    throw std::runtime_error(path + ": cannot encode PNG");
  }
  write_output_file(path, png);  // whole or not at all; a full disk is an error
}

}  // namespace snapscope
