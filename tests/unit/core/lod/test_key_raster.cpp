// The worker's CPU raster of a Columns-mode frame: every pixel's key is what picking reports there.
#include <doctest/doctest.h>

#include "core/lod/key_raster.h"
#include "core/lod/lod_builder.h"
#include "core/lod/lod_pick.h"
#include "unit/support/test_lod_traces.h"

using namespace snapscope;

TEST_CASE("key raster: each pixel's key matches the pick under it") {
  ReplayInput input = test::random_trace({.actions = 6000, .seed = 23});
  Timeline timeline(input);
  LodBuilder builder(timeline);
  double steps = static_cast<double>(timeline.timesteps()), top = static_cast<double>(timeline.max_size());
  const ChartView views[] = {{0.0, steps, 0.0, top * 1.05, 300, 180},
                             {steps * 0.2, steps * 0.6, top * 0.1, top * 0.8, 257, 199}};
  for (const ChartView& view : views) {
    const LodFrame frame = builder.build(view);
    REQUIRE(frame.mode == LodMode::Columns);
    const std::vector<uint32_t> keys = rasterize_keys(frame);
    REQUIRE(keys.size() == static_cast<size_t>(view.width) * static_cast<size_t>(view.height));
    size_t mismatched = 0, allocations = 0;
    for (int px = 0; px < view.width; ++px) {
      for (int py = 0; py < view.height; ++py) {
        const PickResult pick = pick_at(timeline, frame, px + 0.5, py + 0.5);
        uint32_t expected = kBackgroundKey;
        if (pick.kind == PickKind::Allocation) expected = default_color_key(pick.elem);
        allocations += pick.kind == PickKind::Allocation;
        const size_t row = static_cast<size_t>(view.height - 1 - py);  // keys: bottom row first
        mismatched += keys[row * static_cast<size_t>(view.width) + static_cast<size_t>(px)] != expected;
      }
    }
    CHECK(allocations > 0);
    CHECK(mismatched == 0);
  }
}

TEST_CASE("key raster: a frame with a ramp is left to the GPU") {
  LodFrame frame;
  frame.view = {0, 10, 0, 10, 10, 10};
  frame.instances.push_back({0, 5, 1, 2, 3, 0, 0});
  CHECK(rasterize_keys(frame).empty());
}
