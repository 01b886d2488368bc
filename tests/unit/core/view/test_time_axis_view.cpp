// The time-linear chart: ViewTransform with a TimeWarp, the LOD built in its axis, and the ticks.
#include <doctest/doctest.h>

#include <cmath>

#include "core/lod/lod_builder.h"
#include "core/timeline/time_warp.h"
#include "core/view/timeline_axis.h"
#include "core/view/view_transform.h"
#include "unit/support/test_lod_traces.h"

using namespace snapscope;

namespace {

// 10 µs between actions, except an idle 3 s after the first quarter of them.
ReplayInput trace_with_idle_gap(size_t actions) {
  ReplayInput input = test::random_trace({.actions = actions, .seed = 11});
  for (size_t i = 0; i < input.actions.size(); ++i) {
    const auto index = static_cast<int64_t>(i);
    input.action_time_us.push_back(5'000 + 10 * index + (i >= input.actions.size() / 4 ? 3'000'000 : 0));
  }
  return input;
}

ViewTransform time_view(const Timeline& timeline, std::shared_ptr<const TimeWarp> warp) {
  ViewTransform view;
  view.set_viewport(1000, 400);
  view.set_bounds(
      {0, static_cast<double>(timeline.timesteps()), 0, static_cast<double>(timeline.max_size())});
  view.fit();
  view.set_warp(std::move(warp));
  return view;
}

}  // namespace

TEST_CASE("time axis: equal times take equal widths on screen; clicks name the step drawn there") {
  const Timeline timeline(trace_with_idle_gap(4000));
  const auto warp = TimeWarp::build(timeline);
  REQUIRE(warp);
  const ViewTransform view = time_view(timeline, warp);
  const double run = warp->time_at(static_cast<double>(timeline.timesteps()));
  for (double time : {0.0, 5'000.0, 1'000'000.0, 2'000'000.0, 3'000'000.0, run}) {
    const double step = warp->step_at_time(time);
    // Off by the slivers at most: 1e-4 of the width.
    CHECK(std::abs(view.to_screen_x(step) - 1000 * time / run) < 0.11);
    CHECK(view.to_data_x(view.to_screen_x(step)) == doctest::Approx(step).epsilon(1e-6));
  }
  // The idle three seconds take ~99 % of the width; without the warp, a quarter of it.
  const double gap_start = static_cast<double>(timeline.step_begin(999));
  CHECK(view.to_screen_x(gap_start) < 4);
  ViewTransform by_event = view;
  by_event.set_warp(nullptr);
  CHECK(by_event.to_screen_x(gap_start) > 200);
  // Equally spaced columns in time: their step edges are what the reserved strip samples.
  const std::vector<double> edges = view.column_edges(10);
  REQUIRE(edges.size() == 11);
  CHECK(edges.front() == 0);
  CHECK(edges.back() == doctest::Approx(static_cast<double>(timeline.timesteps())));
  CHECK(edges[1] - edges[0] > 900);  // the first column holds the busy quarter
  CHECK(edges[5] - edges[4] < 1.0);  // a column of the idle gap is inside one step
}

TEST_CASE("time axis: pan and zoom move in time, and stay inside the trace") {
  const Timeline timeline(trace_with_idle_gap(4000));
  ViewTransform view = time_view(timeline, TimeWarp::build(timeline));
  const double before = view.to_data_x(10);
  view.zoom_x_at(10, 8);
  CHECK(view.to_data_x(10) == doctest::Approx(before).epsilon(1e-6));
  CHECK(view.visible_axis().width() == doctest::Approx(view.warp()->axis_end() / 8).epsilon(1e-6));
  const double span = view.visible_axis().width();
  const double start = view.visible_axis().x0;
  view.pan_pixels(-100, 0);  // content moves left: later times come into view
  CHECK(view.visible_axis().x0 == doctest::Approx(start + span / 10).epsilon(1e-6));
  CHECK(view.visible_axis().width() == doctest::Approx(span).epsilon(1e-6));
  view.pan_pixels(1e6, 0);  // far past the start: shifted back, same width
  CHECK(view.visible().x0 == 0);
  CHECK(view.visible_axis().width() == doctest::Approx(span).epsilon(1e-6));
}

TEST_CASE("time axis: the LOD samples each pixel column over the steps of its time span") {
  const Timeline timeline(trace_with_idle_gap(4000));
  const auto warp = TimeWarp::build(timeline);
  REQUIRE(warp);
  LodBuilder builder(timeline);
  const ChartView view{0.0, warp->axis_end(), 0.0, static_cast<double>(timeline.max_size()), 500, 200};
  const LodFrame frame = builder.build(view, warp);
  CHECK(frame.warp == warp);
  CHECK(frame.mode == LodMode::Columns);
  REQUIRE(frame.columns.size() == 500);
  // The idle gap (~3 s of the 3.04 s: columns 2..490) shows the states of the busy quarter's last
  // action: the state before and after it.
  for (size_t c = 2; c < 490; ++c) {
    CHECK(frame.columns[c].state >= 999);
    CHECK(frame.columns[c].state <= 1000);
  }
  // Columns 0 and 1 hold the busy first quarter (10 ms of the 3.04 s): its peak is not lost.
  uint64_t busy_peak = 0;
  for (uint64_t step = 0; step < timeline.step_begin(1000); ++step)
    busy_peak = std::max(busy_peak, timeline.memory_at_step(step));
  CHECK(std::max(frame.columns[0].total, frame.columns[1].total) == busy_peak);
  // Instances are in axis units, inside the view.
  for (const ChartInstance& shape : frame.instances) {
    CHECK(shape.x0 >= 0);
    CHECK(shape.x1 <= view.x1 + 1e-3 * view.x1);
  }
}

TEST_CASE("time axis ticks: round times, placed at the steps that reach them") {
  const Timeline timeline(trace_with_idle_gap(4000));
  const auto warp = TimeWarp::build(timeline);
  REQUIRE(warp);
  const std::vector<Tick> ticks =
      step_axis_ticks(timeline, 0, static_cast<double>(timeline.timesteps()), 8, true, warp.get());
  REQUIRE(ticks.size() >= 4);
  CHECK(ticks[0].label == "0 us");
  CHECK(ticks[1].label == "500 ms");
  for (size_t i = 0; i < ticks.size(); ++i) {
    CHECK(warp->time_at(ticks[i].value) == doctest::Approx(500'000.0 * static_cast<double>(i)));
  }
  // Without a warp, wall_clock only relabels evenly spaced steps.
  const std::vector<Tick> relabelled =
      step_axis_ticks(timeline, 0, static_cast<double>(timeline.timesteps()), 8, true);
  REQUIRE(relabelled.size() >= 3);
  CHECK(relabelled[2].value - relabelled[1].value == relabelled[1].value - relabelled[0].value);
}

TEST_CASE("time axis: centring on a step keeps the width in time") {
  const Timeline timeline(trace_with_idle_gap(4000));
  ViewTransform view = time_view(timeline, TimeWarp::build(timeline));
  view.zoom_x_at(500, 100);
  const double span = view.visible_axis().width();
  const double step = view.warp()->step_at_time(1'500'000);  // mid-run, inside the idle gap
  view.centre_x_on(step);
  CHECK(view.visible_axis().width() == doctest::Approx(span).epsilon(1e-6));
  CHECK(view.to_screen_x(step) == doctest::Approx(500).epsilon(1e-6));
}
