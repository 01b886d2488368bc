#include "render/gl_program.h"

#include <stdexcept>
#include <string>
#include <utility>

namespace snapscope {
namespace {

GLuint compile(GLenum kind, std::string_view source) {
  GLuint shader = glCreateShader(kind);
  const char* text = source.data();
  auto length = static_cast<GLint>(source.size());
  glShaderSource(shader, 1, &text, &length);
  glCompileShader(shader);
  GLint ok = 0;
  glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
  if (ok) return shader;
  char log[2048] = {};
  glGetShaderInfoLog(shader, sizeof log, nullptr, log);
  glDeleteShader(shader);
  throw std::runtime_error(std::string("shader compile failed: ") + log);
}

}  // namespace

GlProgram::GlProgram(std::string_view vertex_source, std::string_view fragment_source) {
  GLuint vertex = compile(GL_VERTEX_SHADER, vertex_source);
  GLuint fragment = compile(GL_FRAGMENT_SHADER, fragment_source);
  id_ = glCreateProgram();
  glAttachShader(id_, vertex);
  glAttachShader(id_, fragment);
  glLinkProgram(id_);
  glDeleteShader(vertex);
  glDeleteShader(fragment);
  GLint ok = 0;
  glGetProgramiv(id_, GL_LINK_STATUS, &ok);
  if (ok) return;
  char log[2048] = {};
  glGetProgramInfoLog(id_, sizeof log, nullptr, log);
  glDeleteProgram(id_);
  id_ = 0;
  throw std::runtime_error(std::string("shader link failed: ") + log);
}

GlProgram::~GlProgram() {
  if (id_) glDeleteProgram(id_);
}

GlProgram::GlProgram(GlProgram&& other) noexcept : id_(std::exchange(other.id_, 0)) {}

GlProgram& GlProgram::operator=(GlProgram&& other) noexcept {
  if (this != &other) {
    if (id_) glDeleteProgram(id_);
    id_ = std::exchange(other.id_, 0);
  }
  return *this;
}

}  // namespace snapscope
