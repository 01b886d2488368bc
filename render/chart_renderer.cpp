#include "render/chart_renderer.h"

#include <algorithm>
#include <cstddef>
#include <stdexcept>
#include <string>

namespace snapscope {
namespace {

// One instance = 4 strip vertices generated from gl_VertexID; positions are view-relative data
// units shifted by u_shift (frame origin minus view origin) and scaled to clip space. The fill
// variant keeps per-vertex work minimal (llvmpipe spends most of its time here); OUTLINE adds the
// instance-local coordinates the outline needs.
constexpr const char* kVertexShader = R"(
layout(location = 0) in vec2 a_x;      // x0, x1
layout(location = 1) in vec3 a_shape;  // bottom0, bottom1, height
layout(location = 2) in uint a_color;
uniform vec2 u_shift;
uniform vec2 u_view_size;  // data width and height of the view
uniform vec4 u_palette[32];
uniform int u_palette_size;
uniform vec4 u_pool_inactive;  // kPoolInactiveKey's colour
flat out vec4 v_color;
#ifdef OUTLINE
uniform vec2 u_pixels;  // viewport size in pixels
out vec2 v_local;       // position inside the instance, 0..1
flat out vec2 v_size_px;
#endif
void main() {
  vec2 corner = vec2(gl_VertexID & 1, gl_VertexID >> 1);
  float x = mix(a_x.x, a_x.y, corner.x);
  float y = mix(a_shape.x, a_shape.y, corner.x) + corner.y * a_shape.z;
  gl_Position = vec4((vec2(x, y) + u_shift) / u_view_size * 2.0 - 1.0, 0.0, 1.0);
  v_color = a_color == 0xFFFFFFFDu ? u_pool_inactive : u_palette[int(a_color % uint(u_palette_size))];
#ifdef OUTLINE
  v_local = corner;
  v_size_px = vec2(a_x.y - a_x.x, a_shape.z) / u_view_size * u_pixels;
#endif
}
)";

constexpr const char* kFragmentShader = R"(
flat in vec4 v_color;
out vec4 color;
#ifdef OUTLINE
in vec2 v_local;
flat in vec2 v_size_px;
uniform vec4 u_outline_color;
uniform float u_thickness;
#endif
void main() {
#ifdef OUTLINE
  vec2 edge = min(v_local, 1.0 - v_local) * v_size_px;
  if (min(edge.x, edge.y) > u_thickness) discard;
  color = u_outline_color;
#else
  color = v_color;
#endif
}
)";

// Colours an uploaded key image (LodFrame::key_image): one full-target quad, the same palette
// lookup as the instanced path, so both give identical pixels.
constexpr const char* kKeyVertexShader = R"(#version 330 core
void main() {
  vec2 corner = vec2(gl_VertexID & 1, gl_VertexID >> 1);
  gl_Position = vec4(corner * 2.0 - 1.0, 0.0, 1.0);
}
)";

constexpr const char* kKeyFragmentShader = R"(#version 330 core
uniform usampler2D u_keys;
uniform vec4 u_palette[32];
uniform int u_palette_size;
uniform vec4 u_background;
uniform vec4 u_pool_inactive;
out vec4 color;
void main() {
  uint key = texelFetch(u_keys, ivec2(gl_FragCoord.xy), 0).r;
  color = key == 0xFFFFFFFEu   ? u_background
          : key == 0xFFFFFFFDu ? u_pool_inactive
                               : u_palette[int(key % uint(u_palette_size))];
}
)";

GlProgram make_program(bool outline) {
  std::string header = outline ? "#version 330 core\n#define OUTLINE\n" : "#version 330 core\n";
  return GlProgram(header + kVertexShader, header + kFragmentShader);
}

}  // namespace

bool load_gl(GLADloadfunc get_proc_address) {
  int version = gladLoadGL(get_proc_address);
  return version != 0 && GLAD_VERSION_MAJOR(version) * 10 + GLAD_VERSION_MINOR(version) >= 33;
}

ChartRenderer::ChartRenderer()
    : fill_program_(make_program(false)),
      outline_program_(make_program(true)),
      key_program_(kKeyVertexShader, kKeyFragmentShader),
      palette_(kDefaultPalette.begin(), kDefaultPalette.end()) {
  glGenVertexArrays(1, &vao_);
  glGenVertexArrays(1, &empty_vao_);
  glGenBuffers(1, &vbo_);
  glBindVertexArray(vao_);
  glBindBuffer(GL_ARRAY_BUFFER, vbo_);
  constexpr auto stride = static_cast<GLsizei>(sizeof(ChartInstance));
  glEnableVertexAttribArray(0);
  glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, stride,
                        reinterpret_cast<void*>(offsetof(ChartInstance, x0)));
  glEnableVertexAttribArray(1);
  glVertexAttribPointer(1, 3, GL_FLOAT, GL_FALSE, stride,
                        reinterpret_cast<void*>(offsetof(ChartInstance, bottom0)));
  glEnableVertexAttribArray(2);
  glVertexAttribIPointer(2, 1, GL_UNSIGNED_INT, stride,
                         reinterpret_cast<void*>(offsetof(ChartInstance, color_key)));
  for (GLuint attribute = 0; attribute < 3; ++attribute) glVertexAttribDivisor(attribute, 1);
  glBindVertexArray(0);
  glBindBuffer(GL_ARRAY_BUFFER, 0);
}

ChartRenderer::~ChartRenderer() {
  glDeleteFramebuffers(1, &fbo_);
  glDeleteTextures(1, &color_texture_);
  glDeleteTextures(1, &key_texture_);
  glDeleteBuffers(1, &vbo_);
  glDeleteVertexArrays(1, &vao_);
  glDeleteVertexArrays(1, &empty_vao_);
}

void ChartRenderer::set_palette(std::span<const Rgba> colors) {
  if (colors.empty() || colors.size() > kMaxPaletteColors)
    throw std::invalid_argument("palette: 1 to 32 colours");
  palette_.assign(colors.begin(), colors.end());
}

void ChartRenderer::ensure_target(int width, int height) {
  if (width == target_width_ && height == target_height_ && fbo_) return;
  if (!fbo_) {
    glGenFramebuffers(1, &fbo_);
    glGenTextures(1, &color_texture_);
  }
  glBindTexture(GL_TEXTURE_2D, color_texture_);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, width, height, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
  // Nearest: a 1:1 composite stays exact, and software GL samples it several times faster; a
  // placeholder scaled during a zoom looks blocky only until its frame arrives.
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
  glBindTexture(GL_TEXTURE_2D, 0);
  GLint previous_draw = 0;
  glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &previous_draw);
  glBindFramebuffer(GL_DRAW_FRAMEBUFFER, fbo_);
  glFramebufferTexture2D(GL_DRAW_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, color_texture_, 0);
  GLenum status = glCheckFramebufferStatus(GL_DRAW_FRAMEBUFFER);
  glBindFramebuffer(GL_DRAW_FRAMEBUFFER, static_cast<GLuint>(previous_draw));
  if (status != GL_FRAMEBUFFER_COMPLETE) throw std::runtime_error("chart framebuffer incomplete");
  target_width_ = width;
  target_height_ = height;
}

// Orphans the buffer each time so the driver never waits on the previous frame's draw.
void ChartRenderer::stream(std::span<const ChartInstance> instances) {
  glBindBuffer(GL_ARRAY_BUFFER, vbo_);
  vbo_capacity_ = std::max(vbo_capacity_, instances.size_bytes());
  glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(vbo_capacity_), nullptr, GL_STREAM_DRAW);
  glBufferSubData(GL_ARRAY_BUFFER, 0, static_cast<GLsizeiptr>(instances.size_bytes()), instances.data());
  glBindBuffer(GL_ARRAY_BUFFER, 0);
}

void ChartRenderer::draw_instances(GLsizei count, const ChartView& frame_view, const ChartView& view,
                                   bool outline, Rgba outline_color, float thickness_px) {
  const GlProgram& program = outline ? outline_program_ : fill_program_;
  glUseProgram(program.id());
  glUniform2f(program.uniform("u_shift"), static_cast<float>(frame_view.x0 - view.x0),
              static_cast<float>(frame_view.y0 - view.y0));
  glUniform2f(program.uniform("u_view_size"), static_cast<float>(view.x1 - view.x0),
              static_cast<float>(view.y1 - view.y0));
  glUniform2f(program.uniform("u_pixels"), static_cast<float>(view.width), static_cast<float>(view.height));
  glUniform4fv(program.uniform("u_palette"), static_cast<GLsizei>(palette_.size()), &palette_[0].r);
  glUniform1i(program.uniform("u_palette_size"), static_cast<GLint>(palette_.size()));
  glUniform4fv(program.uniform("u_pool_inactive"), 1, &kPoolInactiveColor.r);
  glUniform4fv(program.uniform("u_outline_color"), 1, &outline_color.r);
  glUniform1f(program.uniform("u_thickness"), thickness_px);
  glBindVertexArray(vao_);
  glDrawArraysInstanced(GL_TRIANGLE_STRIP, 0, 4, count);
  glBindVertexArray(0);
  glUseProgram(0);
}

void ChartRenderer::render(const LodFrame& frame) {
  const ChartView& view = frame.view;
  ensure_target(view.width, view.height);
  GLint previous_draw = 0, previous_viewport[4] = {};
  glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &previous_draw);
  glGetIntegerv(GL_VIEWPORT, previous_viewport);
  glBindFramebuffer(GL_DRAW_FRAMEBUFFER, fbo_);
  glViewport(0, 0, view.width, view.height);
  glDisable(GL_BLEND);
  glDisable(GL_DEPTH_TEST);
  glDisable(GL_SCISSOR_TEST);
  if (frame.key_image.size() == static_cast<size_t>(view.width) * static_cast<size_t>(view.height)) {
    draw_keys(frame);
  } else {
    glClearColor(background_.r, background_.g, background_.b, background_.a);
    glClear(GL_COLOR_BUFFER_BIT);
    stream(frame.instances);
    draw_instances(static_cast<GLsizei>(frame.instances.size()), view, view, false, {}, 0.0f);
  }
  // The caller's targets stay as they were: render() may run in the middle of its frame.
  glBindFramebuffer(GL_DRAW_FRAMEBUFFER, static_cast<GLuint>(previous_draw));
  glViewport(previous_viewport[0], previous_viewport[1], previous_viewport[2], previous_viewport[3]);
  cached_view_ = view;
  last_instance_count_ = frame.instances.size();
}

void ChartRenderer::warm_up() {
  // 3 x 3: not a power of two, like real charts (the driver compiles such textures' sampling apart).
  LodFrame frame;
  frame.view = {0.0, 3.0, 0.0, 3.0, 3, 3};
  frame.instances = {ChartInstance{0.0f, 3.0f, 0.0f, 0.0f, 2.0f, 1, 0},
                     ChartInstance{0.0f, 3.0f, 2.0f, 2.0f, 1.0f, kPoolInactiveKey, 1}};
  render(frame);  // the instanced path
  frame.key_image = {0, 1, 2, 3, kPoolInactiveKey, 5, 6, 7, 8};
  render(frame);  // the key-image path
  glFinish();     // the compiling happens now, not in whichever frame waits on it next
}

void ChartRenderer::draw_keys(const LodFrame& frame) {
  if (!key_texture_) glGenTextures(1, &key_texture_);
  glActiveTexture(GL_TEXTURE0);
  glBindTexture(GL_TEXTURE_2D, key_texture_);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);  // integer textures: no filtering
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_R32UI, frame.view.width, frame.view.height, 0, GL_RED_INTEGER,
               GL_UNSIGNED_INT, frame.key_image.data());
  glUseProgram(key_program_.id());
  glUniform1i(key_program_.uniform("u_keys"), 0);
  glUniform4fv(key_program_.uniform("u_palette"), static_cast<GLsizei>(palette_.size()), &palette_[0].r);
  glUniform1i(key_program_.uniform("u_palette_size"), static_cast<GLint>(palette_.size()));
  glUniform4fv(key_program_.uniform("u_background"), 1, &background_.r);
  glUniform4fv(key_program_.uniform("u_pool_inactive"), 1, &kPoolInactiveColor.r);
  glBindVertexArray(empty_vao_);
  glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
  glBindVertexArray(0);
  glUseProgram(0);
  glBindTexture(GL_TEXTURE_2D, 0);
}

void ChartRenderer::present(const ChartView& view, int x, int y, int width, int height) const {
  if (!fbo_) return;
  // Where the cached view's rectangle falls in the requested view, in destination pixels.
  double sx = width / (view.x1 - view.x0), sy = height / (view.y1 - view.y0);
  auto left = static_cast<GLint>(std::lround(x + (cached_view_.x0 - view.x0) * sx));
  auto right = static_cast<GLint>(std::lround(x + (cached_view_.x1 - view.x0) * sx));
  auto bottom = static_cast<GLint>(std::lround(y + (cached_view_.y0 - view.y0) * sy));
  auto top = static_cast<GLint>(std::lround(y + (cached_view_.y1 - view.y0) * sy));
  bool same_size = right - left == target_width_ && top - bottom == target_height_;
  GLint previous_read = 0;
  glGetIntegerv(GL_READ_FRAMEBUFFER_BINDING, &previous_read);
  glBindFramebuffer(GL_READ_FRAMEBUFFER, fbo_);
  glEnable(GL_SCISSOR_TEST);  // a scaled stale image must not spill outside the chart rectangle
  glScissor(x, y, width, height);
  glBlitFramebuffer(0, 0, target_width_, target_height_, left, bottom, right, top, GL_COLOR_BUFFER_BIT,
                    same_size ? GL_NEAREST : GL_LINEAR);
  glDisable(GL_SCISSOR_TEST);
  glBindFramebuffer(GL_READ_FRAMEBUFFER, static_cast<GLuint>(previous_read));
}

void ChartRenderer::draw_outline(std::span<const ChartInstance> instances, const ChartView& frame_view,
                                 const ChartView& view, int x, int y, int width, int height, Rgba color,
                                 float thickness_px) {
  if (instances.empty()) return;
  stream(instances);
  last_instance_count_ = 0;  // the VBO no longer holds the cached frame
  glViewport(x, y, width, height);
  glEnable(GL_SCISSOR_TEST);
  glScissor(x, y, width, height);
  draw_instances(static_cast<GLsizei>(instances.size()), frame_view, view, true, color, thickness_px);
  glDisable(GL_SCISSOR_TEST);
}

RgbaImage ChartRenderer::read_pixels() const {
  RgbaImage image{target_width_, target_height_, {}};
  if (!fbo_) return image;
  size_t row_bytes = static_cast<size_t>(target_width_) * 4;
  std::vector<uint8_t> bottom_up(row_bytes * static_cast<size_t>(target_height_));
  GLint previous_read = 0;
  glGetIntegerv(GL_READ_FRAMEBUFFER_BINDING, &previous_read);
  glBindFramebuffer(GL_READ_FRAMEBUFFER, fbo_);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadPixels(0, 0, target_width_, target_height_, GL_RGBA, GL_UNSIGNED_BYTE, bottom_up.data());
  glBindFramebuffer(GL_READ_FRAMEBUFFER, static_cast<GLuint>(previous_read));
  image.pixels.resize(bottom_up.size());
  for (size_t row = 0; row < static_cast<size_t>(target_height_); ++row) {
    std::copy_n(bottom_up.data() + row * row_bytes, row_bytes,
                image.pixels.data() + (static_cast<size_t>(target_height_) - 1 - row) * row_bytes);
  }
  return image;
}

}  // namespace snapscope
