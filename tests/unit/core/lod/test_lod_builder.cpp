// The level-of-detail builder and picking, checked against a naive replay of random traces:
// every pixel under the total is the allocation covering its centre, at every zoom.
#include <doctest/doctest.h>

#include <set>

#include "core/lod/key_raster.h"
#include "core/lod/lod_builder.h"
#include "core/lod/lod_pick.h"
#include "unit/support/replay_actions.h"
#include "unit/support/test_lod_traces.h"

using namespace snapscope;

namespace {

ChartView whole(const Timeline& timeline, int width, int height) {
  return {0.0,   static_cast<double>(timeline.timesteps()),
          0.0,   static_cast<double>(timeline.max_size()) * 1.05,
          width, height};
}

// Max total over the states the column's steps show, straight from the timeline.
uint64_t column_max(const Timeline& timeline, const ChartView& view, int c) {
  double left = std::max(view.x0 + c * view.steps_per_px(), 0.0);
  double right = std::min(view.x0 + (c + 1) * view.steps_per_px(), static_cast<double>(timeline.timesteps()));
  uint64_t best = 0;
  for (auto t = static_cast<uint64_t>(left); static_cast<double>(t) < right; ++t) {
    best = std::max(best, timeline.memory_at_step(t));
  }
  return best;
}

// The allocation covering `byte` in a reference stack, or kNoIndex.
uint32_t covering(const std::vector<test::RefAllocation>& stack, double byte) {
  if (byte < 0) return kNoIndex;
  const auto at = static_cast<uint64_t>(byte);
  for (const auto& live : stack) {
    if (live.offset <= at && at < live.offset + live.size) return live.elem;
  }
  return kNoIndex;
}

// Element painted at (px, row from the bottom), from the instance list (last one wins).
uint32_t painted_elem(const LodFrame& frame, int px, int row) {
  const ChartInstance* painted = test::painted_at(frame.instances, frame.view, px, row);
  return painted ? painted->elem : kNoIndex;
}

}  // namespace

TEST_CASE("columns: each pixel is the allocation covering its centre in the column's peak state") {
  ReplayInput input = test::random_trace({.actions = 4000, .seed = 21});
  auto stacks = test::reference_stacks(input);
  Timeline timeline(input);
  LodBuilder builder(timeline);
  ChartView views[] = {whole(timeline, 300, 200),
                       {1000.5, 2900.25, 0.0, 3e7, 257, 180},  // zoomed in y
                       {-50.0, 700.0, 1e6, 9e6, 123, 77}};     // panned past the start, y not at 0
  for (const ChartView& view : views) {
    LodFrame frame = builder.build(view);
    REQUIRE(frame.mode == LodMode::Columns);
    REQUIRE(frame.columns.size() == static_cast<size_t>(view.width));
    const std::vector<uint32_t> keys = rasterize_keys(frame);
    REQUIRE(keys.size() == static_cast<size_t>(view.width * view.height));
    size_t painted = 0, wrong = 0;
    for (int c = 0; c < view.width; ++c) {
      const ColumnSample& column = frame.columns[c];
      if (column.state == kNoIndex) {
        CHECK(view.x0 + (c + 1) * view.steps_per_px() <= 0.0);
        continue;
      }
      CHECK(column.total == column_max(timeline, view, c));
      for (int row = 0; row < view.height; ++row) {
        const uint32_t expected = covering(stacks[column.state], view.y_at_row_centre(row));
        const uint32_t key = keys[static_cast<size_t>(row * view.width + c)];
        wrong += key != (expected == kNoIndex ? kBackgroundKey : expected);
        painted += expected != kNoIndex;
      }
    }
    CHECK(wrong == 0);
    CHECK(painted > 0);
  }
}

TEST_CASE("no gray: at the fit view of many thin allocations every pixel under the curve has an owner") {
  // A training loop: most live allocations are far thinner than a pixel at the fit view.
  ReplayInput input = test::training_like_trace(200, 7);
  Timeline timeline(input);
  LodBuilder builder(timeline);
  const ChartView view = whole(timeline, 400, 150);
  const LodFrame frame = builder.build(view);
  const std::vector<uint32_t> keys = rasterize_keys(frame);
  std::set<uint32_t> colours;
  for (uint32_t key : keys) {
    if (key != kBackgroundKey) colours.insert(key);
  }
  CHECK(colours.size() > 200);
}

TEST_CASE("picking returns what is drawn under every pixel, ramps included") {
  ReplayInput input = test::random_trace({.actions = 3000, .seed = 33});
  Timeline timeline(input);
  LodBuilder builder(timeline);
  double steps = static_cast<double>(timeline.timesteps());
  ChartView views[] = {whole(timeline, 160, 120),
                       {steps * 0.3, steps * 0.3 + 90.0, 0.0, 4e7, 160, 120},  // steps mode
                       {steps * 0.3, steps * 0.3 + 25.0, 1e6, 3e7, 173, 111},  // ~7 px per step
                       {steps * 0.5, steps * 0.5 + 600.0, 2e6, 2.5e7, 140, 100}};
  for (const ChartView& view : views) {
    LodFrame frame = builder.build(view);
    size_t allocations = 0, mismatched = 0;
    for (int px = 0; px < view.width; ++px) {
      for (int py = 0; py < view.height; ++py) {
        const uint32_t painted = painted_elem(frame, px, view.height - 1 - py);
        PickResult pick = pick_at(timeline, frame, px + 0.5, py + 0.5);
        allocations += pick.kind == PickKind::Allocation;
        mismatched += (pick.kind == PickKind::Allocation ? pick.elem : kNoIndex) != painted;
      }
    }
    CHECK(allocations > 0);
    CHECK(mismatched == 0);
  }
}

TEST_CASE("full zoom: every allocation in view is drawn, ramps slide at each pixel column") {
  // a(100) b(200) c(300) then free b: c slides from 300 down to 100 over steps 4..7.
  ReplayInput input;
  for (uint64_t size : {100u, 200u, 300u}) input.elements.push_back({.size = size});
  for (uint32_t e : {0u, 1u, 2u, 1u})
    testing::push_action(input, e, static_cast<EventIndex>(input.actions.size()));
  Timeline timeline(input);
  REQUIRE(timeline.timesteps() == 7);
  LodBuilder builder(timeline);
  ChartView view{0.0, 7.0, 0.0, 700.0, 700, 700};  // 100 px per step, 1 byte per px
  LodFrame frame = builder.build(view);
  REQUIRE(frame.mode == LodMode::Steps);
  std::set<uint32_t> elems;
  for (const ChartInstance& i : frame.instances) elems.insert(i.elem);
  CHECK(elems == std::set<uint32_t>{0, 1, 2});
  // Half way down the ramp (x = 5.5: slid by 200 * 1.5 / 3 = 100): the gap left by b, then c.
  CHECK(painted_elem(frame, 550, 150) == kNoIndex);
  CHECK(pick_at(timeline, frame, 550.0, 700.0 - 150.0).kind == PickKind::None);
  CHECK(painted_elem(frame, 550, 250) == 2);
  CHECK(pick_at(timeline, frame, 550.0, 700.0 - 250.0).elem == 2);
  CHECK(painted_elem(frame, 550, 50) == 0);
  CHECK(painted_elem(frame, 550, 499) == 2);  // c's top: 300 + 300 - 100
  CHECK(painted_elem(frame, 550, 500) == kNoIndex);

  ReplayInput random = test::random_trace({.actions = 800, .seed = 5});
  auto stacks = test::reference_stacks(random);
  Timeline random_timeline(random);
  LodBuilder random_builder(random_timeline);
  ChartView close{200.0, 260.0, 0.0, 2e5, 600, 400};  // 500 bytes per pixel: below the smallest size
  LodFrame close_frame = random_builder.build(close);
  std::set<uint32_t> drawn, expected;
  for (const ChartInstance& i : close_frame.instances) drawn.insert(i.elem);
  for (size_t a = random_timeline.action_at_step(200); a <= random_timeline.action_at_step(259); ++a) {
    for (size_t s : {a, a + 1}) {
      for (const auto& live : stacks[s]) {
        if (double(live.offset) < close.y1) expected.insert(live.elem);
      }
    }
  }
  CHECK(drawn == expected);
}

TEST_CASE("instance count stays bounded by what the screen holds") {
  ReplayInput training = test::training_like_trace(200, 99);
  Timeline training_timeline(training);
  LodBuilder training_builder(training_timeline);
  ChartView training_view = whole(training_timeline, 1920, 1080);
  CHECK(training_builder.build(training_view).instances.size() <= 1920 * 1080 / 8);
  ChartView training_zoom{
      training_view.x1 * 0.4, training_view.x1 * 0.41, 0.0, training_view.y1 / 50, 1920, 1080};
  CHECK(training_builder.build(training_zoom).instances.size() <= 1920 * 1080 / 8);

  // Frees anywhere in the stack move allocations in almost every column: still within what the
  // columns can hold, never proportional to the trace.
  ReplayInput input =
      test::random_trace({.initial = 50, .actions = 200000, .alloc_probability = 0.5, .seed = 99});
  Timeline timeline(input);
  LodBuilder builder(timeline);
  ChartView view = whole(timeline, 1920, 1080);
  LodFrame frame = builder.build(view);
  CHECK(frame.instances.size() < input.actions.size());
  CHECK(frame.instances.size() <= static_cast<size_t>(view.width) * static_cast<size_t>(view.height));
}
