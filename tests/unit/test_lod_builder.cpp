// The level-of-detail builder and picking, checked against a naive replay of random traces.
#include <doctest/doctest.h>

#include <set>

#include "core/lod/lod_builder.h"
#include "core/lod/lod_pick.h"
#include "test_lod_traces.h"

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

}  // namespace

TEST_CASE("columns: top = column max, aggregates = sum of small members, big never aggregated") {
  ReplayInput input = test::random_trace({.actions = 4000, .seed = 21});
  auto stacks = test::reference_stacks(input);
  Timeline timeline(input);
  LodBuilder builder(timeline);
  ChartView views[] = {whole(timeline, 300, 200),
                       {1000.5, 2900.25, 0.0, 3e7, 257, 180},  // zoomed in y: more big allocations
                       {-50.0, 700.0, 1e6, 9e6, 123, 77}};     // panned past the start, y not at 0
  for (const ChartView& view : views) {
    LodFrame frame = builder.build(view);
    REQUIRE(frame.mode == LodMode::Columns);
    REQUIRE(frame.columns.size() == static_cast<size_t>(view.width));
    for (int c = 0; c < view.width; ++c) {
      const ColumnSample& column = frame.columns[c];
      if (column.state == kNoIndex) {
        CHECK(view.x0 + (c + 1) * view.steps_per_px() <= 0.0);
        continue;
      }
      CHECK(column.total == column_max(timeline, view, c));
      uint64_t small = 0;
      std::set<uint32_t> drawn;
      for (const ChartInstance& i : frame.instances) {
        double x = (c + 0.5) * view.steps_per_px();
        if (!i.is_aggregate() && i.x0 <= x && x < i.x1) drawn.insert(i.elem);
      }
      for (const auto& live : stacks[column.state]) {
        bool visible = double(live.offset)<view.y1&& double(live.offset + live.size)> view.y0;
        if (live.size < frame.big_threshold) {
          small += live.size;
          CHECK(drawn.count(live.elem) == 0);
        } else if (visible) {
          CHECK_MESSAGE(drawn.count(live.elem) == 1,
                        "big allocation " << live.elem << " missing in column " << c);
        }
      }
      CHECK(column.aggregated_bytes == small);
      // Painted top of the column: the highest painted row sits at the column max.
      int top_row = -1;
      for (int row = 0; row < view.height; ++row) {
        if (test::painted_at(frame.instances, view, c, row)) top_row = row;
      }
      double max_row = (static_cast<double>(column.total) - view.y0) / view.bytes_per_px();
      if (max_row >= 0.5 && max_row <= view.height - 0.5) {
        CHECK(top_row == static_cast<int>(std::ceil(max_row - 0.5)) - 1);
      }
    }
  }
}

TEST_CASE("picking returns what is drawn under every pixel") {
  ReplayInput input = test::random_trace({.actions = 3000, .seed = 33});
  Timeline timeline(input);
  LodBuilder builder(timeline);
  double steps = static_cast<double>(timeline.timesteps());
  ChartView views[] = {whole(timeline, 160, 120),
                       {steps * 0.3, steps * 0.3 + 90.0, 0.0, 4e7, 160, 120},  // steps mode
                       {steps * 0.5, steps * 0.5 + 600.0, 2e6, 2.5e7, 140, 100}};
  for (const ChartView& view : views) {
    LodFrame frame = builder.build(view);
    size_t allocations = 0, checked = 0;
    for (int px = 0; px < view.width; ++px) {
      double x = view.x_at_pixel_centre(px);
      bool on_ramp = false;
      if (frame.mode == LodMode::Steps && x >= 0 && x < steps) {
        size_t action = timeline.action_at_step(static_cast<uint64_t>(x));
        on_ramp = x >= static_cast<double>(timeline.step_begin(action)) + 1.0;
      }
      if (on_ramp) continue;  // ramp edges are snapped at their ends only; see the ramp test
      for (int py = 0; py < view.height; ++py) {
        const ChartInstance* painted = test::painted_at(frame.instances, view, px, view.height - 1 - py);
        PickResult pick = pick_at(timeline, frame, px + 0.5, py + 0.5);
        ++checked;
        if (!painted) {
          CHECK(pick.kind == PickKind::None);
        } else if (painted->is_aggregate()) {
          CHECK(pick.kind == PickKind::Aggregated);
          CHECK(pick.size < frame.big_threshold);
        } else {
          ++allocations;
          REQUIRE(pick.kind == PickKind::Allocation);
          CHECK(pick.elem == painted->elem);
        }
      }
    }
    CHECK(checked > 0);
    CHECK(allocations > 0);
  }
}

TEST_CASE("full zoom: every allocation in view is its own instance, ramps are trapezoids") {
  // a(100) b(200) c(300) then free b: c slides from 300 down to 100 over steps 4..7.
  ReplayInput input;
  for (uint64_t size : {100u, 200u, 300u}) input.elements.push_back({.size = size});
  for (uint32_t e : {0u, 1u, 2u, 1u})
    input.actions.push_back({e, static_cast<EventIndex>(input.actions.size())});
  Timeline timeline(input);
  REQUIRE(timeline.timesteps() == 7);
  LodBuilder builder(timeline);
  ChartView view{0.0, 7.0, 0.0, 700.0, 700, 700};  // 100 px per step, 1 byte per px
  LodFrame frame = builder.build(view);
  REQUIRE(frame.mode == LodMode::Steps);
  std::set<uint32_t> elems;
  const ChartInstance* ramp = nullptr;
  for (const ChartInstance& i : frame.instances) {
    if (i.is_aggregate()) continue;
    elems.insert(i.elem);
    if (i.bottom0 != i.bottom1) ramp = &i;
  }
  CHECK(elems == std::set<uint32_t>{0, 1, 2});
  REQUIRE(ramp != nullptr);
  CHECK(ramp->elem == 2);
  CHECK(ramp->x0 == 4.0f);
  CHECK(ramp->x1 == 7.0f);
  CHECK(ramp->bottom0 == 300.0f);
  CHECK(ramp->bottom1 == 100.0f);
  CHECK(ramp->height == 300.0f);
  // Half way down the ramp: the gap left by b, then c.
  CHECK(pick_at(timeline, frame, 550.0, 700.0 - 150.0).kind == PickKind::None);
  CHECK(pick_at(timeline, frame, 550.0, 700.0 - 250.0).elem == 2);
  CHECK(pick_at(timeline, frame, 550.0, 700.0 - 50.0).elem == 0);

  ReplayInput random = test::random_trace({.actions = 800, .seed = 5});
  auto stacks = test::reference_stacks(random);
  Timeline random_timeline(random);
  LodBuilder random_builder(random_timeline);
  ChartView close{200.0, 260.0, 0.0, 2e5, 600, 400};  // 500 bytes per pixel: below the smallest size
  LodFrame close_frame = random_builder.build(close);
  std::set<uint32_t> drawn, expected;
  for (const ChartInstance& i : close_frame.instances) {
    if (!i.is_aggregate()) drawn.insert(i.elem);
  }
  for (size_t a = random_timeline.action_at_step(200); a <= random_timeline.action_at_step(259); ++a) {
    for (size_t s : {a, a + 1}) {
      for (const auto& live : stacks[s]) {
        if (double(live.offset) < close.y1) expected.insert(live.elem);
      }
    }
  }
  CHECK(close_frame.big_threshold <= 513);
  CHECK(drawn == expected);
}

TEST_CASE("instance count stays bounded on large random traces") {
  ReplayInput training = test::training_like_trace(200, 99);
  Timeline training_timeline(training);
  LodBuilder training_builder(training_timeline);
  ChartView training_view = whole(training_timeline, 1920, 1080);
  CHECK(training_builder.build(training_view).instances.size() <= 30000);
  ChartView training_zoom{
      training_view.x1 * 0.4, training_view.x1 * 0.41, 0.0, training_view.y1 / 50, 1920, 1080};
  CHECK(training_builder.build(training_zoom).instances.size() <= 30000);

  // Frees anywhere in the stack move allocations in almost every column: still within what the
  // columns can hold, never proportional to the trace.
  ReplayInput input =
      test::random_trace({.initial = 50, .actions = 200000, .alloc_probability = 0.5, .seed = 99});
  Timeline timeline(input);
  LodBuilder builder(timeline);
  ChartView view = whole(timeline, 1920, 1080);
  LodFrame frame = builder.build(view);
  CHECK(frame.instances.size() < input.actions.size());
  size_t bound = 0;  // per column: the aggregate plus the allocations a column can hold
  for (const ColumnSample& column : frame.columns) {
    bound += 1 + static_cast<size_t>(column.total / frame.big_threshold);
  }
  CHECK(frame.instances.size() <= bound);
}
