// A linked GLSL program (vertex + fragment), owned. Compile and link errors throw with the log.
#pragma once

#include <glad/gl.h>

#include <string_view>

namespace snapscope {

class GlProgram {
 public:
  GlProgram() = default;
  GlProgram(std::string_view vertex_source, std::string_view fragment_source);
  ~GlProgram();
  GlProgram(GlProgram&& other) noexcept;
  GlProgram& operator=(GlProgram&& other) noexcept;
  GlProgram(const GlProgram&) = delete;
  GlProgram& operator=(const GlProgram&) = delete;

  GLuint id() const { return id_; }
  GLint uniform(const char* name) const { return glGetUniformLocation(id_, name); }

 private:
  GLuint id_ = 0;
};

}  // namespace snapscope
