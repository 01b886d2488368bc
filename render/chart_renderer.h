// Draws LodFrames with OpenGL 3.3 core: every instance of a frame in ONE instanced draw call into
// an offscreen colour texture (FBO) that stays cached, so an idle frame only composites that
// texture. A view change re-renders; until then present() shows the stale image scaled to the new
// view. Hover/selection outlines are drawn on top by a second cheap draw, never into the cache.
// Requires a current GL 3.3+ context whose functions glad has loaded (load_gl()).
#pragma once

#include <glad/gl.h>

#include <cstdint>
#include <span>
#include <vector>

#include "core/lod/lod_frame.h"
#include "core/util/chart_palette.h"
#include "render/gl_program.h"

namespace snapscope {

// Loads GL functions through the context's getter (glfwGetProcAddress, eglGetProcAddress).
// Returns false when no GL 3.3 core context is current.
bool load_gl(GLADloadfunc get_proc_address);

struct RgbaImage {
  int width = 0, height = 0;
  std::vector<uint8_t> pixels;  // RGBA8, top row first
};

class ChartRenderer {
 public:
  ChartRenderer();
  ~ChartRenderer();
  ChartRenderer(const ChartRenderer&) = delete;
  ChartRenderer& operator=(const ChartRenderer&) = delete;

  void set_palette(std::span<const Rgba> colors);  // at most kMaxPaletteColors
  void set_background(Rgba color) { background_ = color; }

  // Streams the frame's instances and draws them into the cached texture (sized to the view);
  // when the frame carries a key_image, uploads and colours that instead (same pixels).
  void render(const LodFrame& frame);
  const ChartView& cached_view() const { return cached_view_; }
  GLuint texture() const { return color_texture_; }  // bottom row first, as GL stores it
  size_t last_instance_count() const { return last_instance_count_; }

  // Composites the cached image into the bound draw framebuffer at viewport rectangle
  // (x, y, w, h) (GL convention: y from the bottom) for `view`: a blit, scaled and shifted when
  // `view` is not the view it was rendered for.
  void present(const ChartView& view, int x, int y, int width, int height) const;
  // Outlines instances (e.g. of the hovered element, built for `frame_view`) over the current
  // draw framebuffer, positioned for `view` in viewport rectangle (x, y, w, h).
  void draw_outline(std::span<const ChartInstance> instances, const ChartView& frame_view,
                    const ChartView& view, int x, int y, int width, int height, Rgba color,
                    float thickness_px = 2.0f);

  RgbaImage read_pixels() const;  // the cached image

  // Draws a tiny frame through each path (instances, key image): software GL (llvmpipe)
  // compiles a shader at its first draw, a tenth of a second each, which a viewer can pay while
  // it loads instead of in its first chart frame. The cached image is then that tiny frame.
  void warm_up();

 private:
  void ensure_target(int width, int height);
  void stream(std::span<const ChartInstance> instances);
  void draw_keys(const LodFrame& frame);
  void draw_instances(GLsizei count, const ChartView& frame_view, const ChartView& view, bool outline,
                      Rgba outline_color, float thickness_px);

  GlProgram fill_program_, outline_program_, key_program_;
  GLuint vao_ = 0, empty_vao_ = 0, vbo_ = 0, fbo_ = 0, color_texture_ = 0, key_texture_ = 0;
  size_t vbo_capacity_ = 0;
  int target_width_ = 0, target_height_ = 0;
  std::vector<Rgba> palette_;
  Rgba background_ = kDefaultBackground;
  ChartView cached_view_;
  size_t last_instance_count_ = 0;
};

}  // namespace snapscope
