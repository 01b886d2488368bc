// An offscreen OpenGL 3.3 core context through EGL (surfaceless Mesa platform when available,
// else the default display): renders and reads back pixels without any window or X server.
// Used by headless tools and the GL tests.
#pragma once

#include <string>

namespace snapscope {

class HeadlessGl {
 public:
  HeadlessGl();  // throws std::runtime_error (with the failing step) when no context can be made
  ~HeadlessGl();
  HeadlessGl(const HeadlessGl&) = delete;
  HeadlessGl& operator=(const HeadlessGl&) = delete;

  std::string renderer() const;  // GL_RENDERER, e.g. "llvmpipe (LLVM 15.0.6, 256 bits)"

 private:
  void* display_ = nullptr;
  void* context_ = nullptr;
};

}  // namespace snapscope
