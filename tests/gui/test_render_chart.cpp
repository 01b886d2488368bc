// The GL renderer end to end: what the GPU paints under every pixel is what picking reports.
#include <doctest/doctest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>

#include "core/lod/key_raster.h"
#include "core/lod/lod_builder.h"
#include "core/lod/lod_pick.h"
#include "core/timeline/private_pool_layout.h"
#include "render/chart_renderer.h"
#include "render/headless_gl.h"
#include "render/png_writer.h"
#include "unit/support/test_lod_traces.h"

using namespace snapscope;

namespace {

std::array<uint8_t, 4> to_bytes(Rgba c) {
  auto byte = [](float v) { return static_cast<uint8_t>(std::lround(v * 255.0f)); };
  return {byte(c.r), byte(c.g), byte(c.b), byte(c.a)};
}

std::array<uint8_t, 4> pixel(const RgbaImage& image, int px, int py) {
  size_t at = (static_cast<size_t>(py) * static_cast<size_t>(image.width) + static_cast<size_t>(px)) * 4;
  return {image.pixels[at], image.pixels[at + 1], image.pixels[at + 2], image.pixels[at + 3]};
}

Rgba expected_colour(const PickResult& pick) {
  switch (pick.kind) {
    case PickKind::None:
      return kDefaultBackground;
    case PickKind::PoolInactive:
      return kPoolInactiveColor;
    case PickKind::Allocation:
      break;
  }
  return kDefaultPalette[default_color_key(pick.elem) % kDefaultPalette.size()];
}

}  // namespace

TEST_CASE("render: every pixel's colour matches the pick under it") {
  HeadlessGl gl;
  MESSAGE("GL renderer: " << gl.renderer());
  ReplayInput input = test::random_trace({.actions = 3000, .seed = 42});
  Timeline timeline(input);
  LodBuilder builder(timeline);
  ChartRenderer renderer;
  double steps = static_cast<double>(timeline.timesteps());
  ChartView views[] = {{0.0, steps, 0.0, static_cast<double>(timeline.max_size()) * 1.1, 320, 200},
                       {steps * 0.25, steps * 0.25 + 150.0, 0.0, 5e7, 300, 160},  // steps mode
                       {steps * 0.6, steps * 0.6 + 900.0, 3e6, 4e7, 256, 256}};
  for (const ChartView& view : views) {
    LodFrame frame = builder.build(view);
    renderer.render(frame);
    RgbaImage image = renderer.read_pixels();
    REQUIRE(image.width == view.width);
    REQUIRE(image.height == view.height);
    size_t compared = 0, mismatched = 0, allocation_pixels = 0;
    for (int px = 0; px < view.width; ++px) {
      double x = view.x_at_pixel_centre(px);
      if (frame.mode == LodMode::Steps && x >= 0 && x < steps) {
        size_t action = timeline.action_at_step(static_cast<uint64_t>(x));
        if (x >= static_cast<double>(timeline.step_begin(action)) + 1.0) continue;  // ramp: snapped ends only
      }
      for (int py = 0; py < view.height; ++py) {
        PickResult pick = pick_at(timeline, frame, px + 0.5, py + 0.5);
        allocation_pixels += pick.kind == PickKind::Allocation;
        ++compared;
        if (pixel(image, px, py) != to_bytes(expected_colour(pick))) ++mismatched;
      }
    }
    CHECK(compared > 0);
    CHECK(allocation_pixels > 0);
    CHECK(mismatched == 0);
  }
}

// The worker's CPU raster (key_raster.h) must paint exactly what the instanced draw paints.
TEST_CASE("render: an uploaded key image gives the same pixels as drawing the instances") {
  HeadlessGl gl;
  ReplayInput input = test::random_trace({.actions = 4000, .seed = 9});
  Timeline timeline(input);
  LodBuilder builder(timeline);
  ChartRenderer renderer;
  double steps = static_cast<double>(timeline.timesteps()), top = static_cast<double>(timeline.max_size());
  ChartView views[] = {{0.0, steps, 0.0, top * 1.1, 320, 200},
                       {-steps * 0.1, steps * 0.7, top * 0.2, top * 0.9, 301, 157},
                       {steps * 0.3, steps * 0.3 + 700.0, 0.0, top, 233, 180}};
  int rasterized = 0;
  for (const ChartView& view : views) {
    LodFrame frame = builder.build(view);
    REQUIRE(frame.mode == LodMode::Columns);
    renderer.render(frame);
    const RgbaImage drawn = renderer.read_pixels();
    frame.key_image = rasterize_keys(frame);
    REQUIRE(frame.key_image.size() == static_cast<size_t>(view.width) * static_cast<size_t>(view.height));
    ++rasterized;
    renderer.render(frame);
    const RgbaImage uploaded = renderer.read_pixels();
    REQUIRE(uploaded.pixels.size() == drawn.pixels.size());
    size_t mismatched = 0;
    for (size_t i = 0; i < drawn.pixels.size(); ++i) mismatched += drawn.pixels[i] != uploaded.pixels[i];
    CHECK(mismatched == 0);
  }
  CHECK(rasterized == 3);
}

// warm_up draws a tiny frame through both paths; what comes after must not notice it.
TEST_CASE("render: a warmed-up renderer draws its tiny frame, then real frames as a fresh one does") {
  HeadlessGl gl;
  ChartRenderer warmed;
  warmed.warm_up();
  const RgbaImage tiny = warmed.read_pixels();
  REQUIRE(tiny.width == 3);
  REQUIRE(tiny.height == 3);
  // The key image's last draw: keys 0..8 bottom row first, the pools' gray at key 4.
  CHECK(pixel(tiny, 0, 2) == to_bytes(kDefaultPalette[0]));
  CHECK(pixel(tiny, 1, 1) == to_bytes(kPoolInactiveColor));
  CHECK(pixel(tiny, 2, 0) == to_bytes(kDefaultPalette[8 % kDefaultPalette.size()]));

  ReplayInput input = test::random_trace({.actions = 2000, .seed = 5});
  Timeline timeline(input);
  LodBuilder builder(timeline);
  const double steps = static_cast<double>(timeline.timesteps());
  LodFrame frame = builder.build({0.0, steps, 0.0, static_cast<double>(timeline.max_size()) * 1.1, 301, 173});
  ChartRenderer fresh;
  for (int path = 0; path < 2; ++path) {  // instances, then the key image
    if (path == 1) frame.key_image = rasterize_keys(frame);
    warmed.render(frame);
    fresh.render(frame);
    const RgbaImage a = warmed.read_pixels(), b = fresh.read_pixels();
    REQUIRE(a.width == 301);
    CHECK(a.pixels == b.pixels);
  }
}

TEST_CASE("render: stale image presented for a panned view, outline on top, PNG output") {
  HeadlessGl gl;
  ReplayInput input;
  for (uint64_t size : {400u, 300u}) input.elements.push_back({.size = size});
  input.actions = {{0}, {1}};
  Timeline timeline(input);
  LodBuilder builder(timeline);
  ChartRenderer renderer;
  ChartView view{0.0, 2.0, 0.0, 1000.0, 100, 100};  // elem 0: rows 0-39 from x = 0; elem 1 above from x = 50
  LodFrame frame = builder.build(view);
  renderer.render(frame);
  RgbaImage image = renderer.read_pixels();
  CHECK(pixel(image, 10, 99 - 20) == to_bytes(kDefaultPalette[0]));
  CHECK(pixel(image, 75, 99 - 50) == to_bytes(kDefaultPalette[1]));
  CHECK(pixel(image, 10, 99 - 50) == to_bytes(kDefaultBackground));

  // Present the cached image for a view panned right by half its width into a second target.
  GLuint fbo = 0, texture = 0;
  glGenFramebuffers(1, &fbo);
  glGenTextures(1, &texture);
  glBindTexture(GL_TEXTURE_2D, texture);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 100, 100, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
  glBindFramebuffer(GL_FRAMEBUFFER, fbo);
  glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, texture, 0);
  glClearColor(0, 0, 0, 1);
  glClear(GL_COLOR_BUFFER_BIT);
  ChartView panned{1.0, 3.0, 0.0, 1000.0, 100, 100};
  renderer.present(panned, 0, 0, 100, 100);
  std::vector<ChartInstance> outlined;
  for (const ChartInstance& i : frame.instances) {
    if (i.elem == 0) outlined.push_back(i);
  }
  renderer.draw_outline(outlined, frame.view, panned, 0, 0, 100, 100, {1, 1, 1, 1});
  std::array<uint8_t, 4> shown{}, edge{};
  glReadPixels(10, 50, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, shown.data());  // old x = 1.1: elem 1
  glReadPixels(25, 39, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, edge.data());   // top edge of elem 0
  CHECK(shown == to_bytes(kDefaultPalette[1]));
  CHECK(edge == std::array<uint8_t, 4>{255, 255, 255, 255});
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glDeleteFramebuffers(1, &fbo);
  glDeleteTextures(1, &texture);

  auto path = std::filesystem::temp_directory_path() / "snapscope_render_test.png";
  write_png(path.string(), image);
  std::ifstream png(path, std::ios::binary);
  char signature[8] = {};
  png.read(signature, 8);
  CHECK(std::string(signature + 1, 3) == "PNG");
  std::filesystem::remove(path);
  CHECK_THROWS_AS(write_png("/nonexistent-dir/x.png", image), std::runtime_error);
  CHECK_THROWS_AS(write_png(path.string(), RgbaImage{}), std::runtime_error);
  CHECK_FALSE(std::filesystem::exists(path));
}

TEST_CASE("palette: stack neighbours differ, outline colours are far from every palette colour") {
  const size_t n = kDefaultPalette.size();
  for (size_t key = 0; key < n; ++key) {
    CAPTURE(key);
    CHECK(rgb_distance2(kDefaultPalette[key], kDefaultPalette[(key + 1) % n]) >= 0.16f);
    CHECK(rgb_distance2(kDefaultPalette[key], kDefaultPalette[(key + 2) % n]) >= 0.30f);
    for (Rgba outline : {kSelectionOutline, kHoverOutline, kSearchOutline, kGroupOutline}) {
      CHECK(rgb_distance2(outline, kDefaultPalette[key]) >= kOutlineMinDistance2);
    }
  }
}

// The private pools view (LodBuilder::set_private_pools): envelopes' inactive memory in the
// renderer's own gray, blocks inside them, both through the instanced draw and the key image.
TEST_CASE("render: a private pools frame's pixels match its picks, gray included") {
  HeadlessGl gl;
  Timeline timeline(test::random_trace({.initial = 12, .actions = 2500, .seed = 17}));
  PrivatePoolInput pools;
  pools.pools = {{{0, 1}, 0}, {{2, 0}, 0}};
  pools.snapshot_reserved = {uint64_t{40} << 20, 0};
  for (uint32_t elem = 0; elem < timeline.element_count(); ++elem) {
    pools.element_pool.push_back(elem % 4 == 0 ? 0 : elem % 4 == 1 ? 1 : kNoIndex);
  }
  pools.segment_changes.push_back({timeline.action_count() / 3, 1, int64_t{30} << 20});
  auto layout = std::make_shared<const PrivatePoolLayout>(timeline, std::move(pools));
  LodBuilder builder(timeline);
  builder.set_private_pools(layout);
  ChartRenderer renderer;
  const double steps = static_cast<double>(timeline.timesteps());
  const double top = static_cast<double>(layout->peak_bytes());
  const ChartView views[] = {{0.0, steps, 0.0, top * 1.1, 320, 200},
                             {steps * 0.3, steps * 0.3 + 120.0, 0.0, top, 240, 180}};
  for (const ChartView& view : views) {
    LodFrame frame = builder.build(view);
    for (bool keys : {false, true}) {
      if (keys) frame.key_image = rasterize_keys(frame);
      renderer.render(frame);
      const RgbaImage image = renderer.read_pixels();
      size_t mismatched = 0, gray = 0, allocation = 0;
      for (int px = 0; px < view.width; ++px) {
        for (int py = 0; py < view.height; ++py) {
          const PickResult pick = pick_at(timeline, frame, px + 0.5, py + 0.5);
          gray += pick.kind == PickKind::PoolInactive;
          allocation += pick.kind == PickKind::Allocation;
          if (pixel(image, px, py) != to_bytes(expected_colour(pick))) ++mismatched;
        }
      }
      CHECK(gray > 0);
      CHECK(allocation > 0);
      CHECK(mismatched == 0);
    }
  }
}
