// The chart's framing and hover through the real app (Xvfb): zooming time fits y to the totals
// in view (or from the lowest total, or not at all), "zoom to allocation" frames the whole
// lifetime, selecting a phase frames it in both axes, and hovering shows the tooltip of the
// allocation picked under the pointer.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <set>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "core/analysis/state_mapping.h"
#include "core/cursor/time_cursor.h"
#include "core/document/document.h"
#include "core/timeline/memory_pyramid.h"
#include "core/timeline/time_warp.h"
#include "core/view/y_fit.h"
#include "gui_harness.h"

using namespace snapscope;
using namespace snapscope::gui_test;
namespace fs = std::filesystem;

namespace {

std::string view_command(double x0, double x1) {
  std::ostringstream text;
  text.precision(17);
  text << "view " << x0 << ":" << x1 << "\n";
  return text.str();
}

DataRect view_of(const nlohmann::json& line) {
  return {line["view"]["x0"], line["view"]["x1"], line["view"]["y0"], line["view"]["y1"]};
}

// The y range fit_y gives for the x range, from the core's own pyramid.
DataRect expected_fit(const Timeline& timeline, const DataRect& shown, bool raise_floor) {
  const MemoryPyramid pyramid(timeline);
  return fit_y(shown, timeline, pyramid, raise_floor);
}

}  // namespace

TEST_CASE("script: zooming time fits y to the totals in view; floor and fixed y on request") {
  const fs::path sandbox = make_sandbox("yfit");
  const std::string input = fixture_pickle(sandbox).string();
  const auto document = convert_with_app(sandbox, input);
  const Timeline& timeline = document->devices.front().blocks;
  const auto steps = static_cast<double>(timeline.timesteps());
  // A twentieth of the trace whose highest total stays below the peak.
  const MemoryPyramid pyramid(timeline);
  double start = -1;
  for (double f = 0; f < 0.95; f += 0.05) {
    const MemoryExtent extent =
        pyramid.over_steps(static_cast<uint64_t>(steps * f), static_cast<uint64_t>(steps * (f + 0.05)));
    if (extent.max_bytes < timeline.peak_bytes() * 9 / 10) {
      start = steps * f;
      break;
    }
  }
  REQUIRE(start >= 0);
  const std::string zoom = view_command(start, start + steps * 0.05);
  const RunResult run = run_script(sandbox, input,
                                   "print-view\n" + zoom + "print-view\nyfit floor\nprint-view\nyfit off\n" +
                                       view_command(steps * 0.1, steps * 0.2) + "print-view\n");
  REQUIRE(run.exit_code == 0);
  const auto lines = json_lines(run.out);
  REQUIRE(lines.size() == 4);
  const DataRect whole = view_of(lines[0]), zoomed = view_of(lines[1]), floored = view_of(lines[2]),
                 fixed = view_of(lines[3]);
  CHECK(whole.y0 == 0);
  CHECK(whole.y1 == doctest::Approx(static_cast<double>(timeline.peak_bytes()) * 1.05));
  const DataRect fitted = expected_fit(timeline, zoomed, false);
  CHECK(zoomed.y0 == 0);
  CHECK(zoomed.y1 == doctest::Approx(fitted.y1));
  CHECK(zoomed.y1 < whole.y1);  // this stretch stays below the peak: y zoomed in with time
  const DataRect floor = expected_fit(timeline, floored, true);
  CHECK(floored.y0 > 0);
  CHECK(floored.y0 == doctest::Approx(floor.y0));
  CHECK(floored.y1 == doctest::Approx(floor.y1));
  // y fitting off: another time range keeps the floored y range.
  CHECK(fixed.x0 == doctest::Approx(steps * 0.1));
  CHECK(fixed.y0 == doctest::Approx(floored.y0));
  CHECK(fixed.y1 == doctest::Approx(floored.y1));
}

TEST_CASE("script: zoom to allocation frames its whole lifetime in both axes") {
  const fs::path sandbox = make_sandbox("zoom-alloc");
  const std::string input = fixture_pickle(sandbox).string();
  const auto document = convert_with_app(sandbox, input);
  const Timeline& timeline = document->devices.front().blocks;
  // A freed allocation that slides down during its life (something below it is freed first).
  // `select ADDRESS` takes the first allocation at an address: only those are candidates.
  uint32_t chosen = kNoIndex;
  std::set<uint64_t> seen;
  for (uint32_t e = 0; e < timeline.element_count() && chosen == kNoIndex; ++e) {
    if (!timeline.ever_live(e) || !seen.insert(timeline.element(e).addr).second) continue;
    if (timeline.free_state(e) > timeline.action_count()) continue;
    const auto bottom = timeline.polygon(e);
    if (bottom.front().second != bottom.back().second) chosen = e;
  }
  REQUIRE(chosen != kNoIndex);
  const auto bottom = timeline.polygon(chosen);
  std::ostringstream script;
  script << "select " << timeline.element(chosen).addr << "\nzoom-selection\nprint-selection\nprint-view\n";
  const RunResult run = run_script(sandbox, input, script.str());
  REQUIRE(run.exit_code == 0);
  const auto lines = json_lines(run.out);
  REQUIRE(lines.size() == 2);
  REQUIRE(lines[0]["elem"] == chosen);  // the first allocation at that address is the one chosen
  const DataRect view = view_of(lines[1]);
  const auto first = static_cast<double>(bottom.front().first),
             last = static_cast<double>(bottom.back().first);
  CHECK(view.x0 <= first);
  CHECK(view.x1 >= last);
  CHECK(view.width() <= (last - first) * 1.2 + 4);
  const auto size = static_cast<double>(timeline.element(chosen).size);
  CHECK(view.y0 <= static_cast<double>(bottom.back().second));
  CHECK(view.y1 >= static_cast<double>(bottom.front().second) + size);
  CHECK(view.height() <= (static_cast<double>(bottom.front().second - bottom.back().second) + size) * 1.2);
}

TEST_CASE("script: selecting a phase frames it in both axes, y fitted even when fitting is off") {
  const fs::path sandbox = make_sandbox("phase-frame");
  const std::string input = fixture_pickle(sandbox).string();
  const auto document = convert_with_app(sandbox, input);
  const Timeline& timeline = document->devices.front().blocks;
  const RunResult run = run_script(sandbox, input, "yfit off\nphase 1\nprint-view\n");
  REQUIRE(run.exit_code == 0);
  const auto lines = json_lines(run.out);
  REQUIRE(lines.size() == 2);
  const double start = state_x(timeline, lines[0]["start_state"]),
               end = state_x(timeline, lines[0]["end_state"]);
  const DataRect view = view_of(lines[1]);
  CHECK(view.x0 <= start);
  CHECK(view.x1 >= end);
  CHECK(view.width() <= (end - start) * 1.2 + 2);
  const DataRect fitted = expected_fit(timeline, view, false);
  CHECK(view.y0 == 0);
  CHECK(view.y1 == doctest::Approx(fitted.y1));
  CHECK(view.y1 < static_cast<double>(timeline.peak_bytes()) * 1.05);  // not the whole range
}

TEST_CASE("script: hovering an allocation outlines it and shows its tooltip; no pointer, no tooltip") {
  const fs::path sandbox = make_sandbox("hover");
  const std::string input = fixture_pickle(sandbox).string();
  // A few frames first (here and below): the layout of the first frames can still move.
  const RunResult probe = run_script(sandbox, input, "print-view\n");
  REQUIRE(probe.exit_code == 0);
  const auto chart = json_lines(probe.out).at(0)["chart"];
  // Low in the chart, a third of the way in: under the curve at the fit view.
  const int x = static_cast<int>(chart["x"].get<double>() + chart["width"].get<double>() / 3);
  const int y = static_cast<int>(chart["y"].get<double>() + chart["height"].get<double>() - 6);
  const fs::path plain = sandbox / "plain.png", hovered = sandbox / "hovered.png";
  const std::string at = std::to_string(x) + " " + std::to_string(y);
  const RunResult run =
      run_script(sandbox, input,
                 "screenshot " + plain.string() + "\nprint-view\nhover " + at + "\nscreenshot " +
                     hovered.string() + "\nprint-view\nclick " + at + "\nprint-selection\n");
  REQUIRE(run.exit_code == 0);
  const auto lines = json_lines(run.out);
  REQUIRE(lines.size() == 3);
  CHECK(lines[0]["hovered"].is_null());  // headless: the display's pointer is ignored
  REQUIRE(lines[1]["hovered"].is_number());
  CHECK(lines[1]["hovered"] == lines[2]["elem"]);  // hover and click pick the same allocation
  // The tooltip is drawn below and right of the pointer: a box of changed pixels there.
  const Image before = load_png(plain), after = load_png(hovered);
  int changed = 0;
  for (int dy = 20; dy < 60; ++dy) {
    for (int dx = 20; dx < 160; ++dx) {
      if (x + dx >= before.width || y + dy >= before.height) continue;
      changed += before.pixel(x + dx, y + dy) != after.pixel(x + dx, y + dy);
    }
  }
  CHECK(changed > 1000);
}

TEST_CASE("script: view eE0:eE1 frames events as the axis numbers them") {
  const fs::path sandbox = make_sandbox("view-events");
  const std::string input = fixture_pickle(sandbox).string();
  const auto document = convert_with_app(sandbox, input);
  const Timeline& timeline = document->devices.front().blocks;
  const int64_t first = timeline.action_event(100), last = timeline.action_event(300);
  const std::string range = "e" + std::to_string(first) + ":e" + std::to_string(last);
  const auto expected = event_steps(timeline, first, last);
  const RunResult run = run_script(sandbox, input, "view " + range + "\nprint-view\n");
  REQUIRE(run.exit_code == 0);
  const auto lines = json_lines(run.out);
  REQUIRE(lines.size() == 1);
  CHECK(view_of(lines[0]).x0 == static_cast<double>(expected.first));
  CHECK(view_of(lines[0]).x1 == static_cast<double>(expected.second));
  CHECK(expected.first == timeline.step_begin(100));
  CHECK(expected.second == timeline.step_end(300));
}

TEST_CASE("script: on the wall-clock axis x is linear in time: a click lands at the time it points at") {
  const fs::path sandbox = make_sandbox("timeaxis");
  const std::string input = fixture_pickle(sandbox).string();
  const auto document = convert_with_app(sandbox, input);
  const Timeline& timeline = document->devices.front().blocks;
  const auto warp = TimeWarp::build(timeline);
  REQUIRE(warp);
  const double run_us = warp->time_at(static_cast<double>(timeline.timesteps()));
  const RunResult layout = run_script(sandbox, input, "xaxis time\nprint-view\n");
  REQUIRE(layout.exit_code == 0);
  const nlohmann::json chart = json_lines(layout.out).at(0)["chart"];
  const double left = chart["x"], top = chart["y"], width = chart["width"];
  // Empty space just under the chart's top edge (the view ends 5 % above the peak) places the cursor.
  const double fractions[] = {0.1, 0.3, 0.5, 0.7, 0.9};
  std::string clicks;
  for (double fraction : fractions) {
    std::ostringstream click;
    click.precision(17);
    click << "click " << left + fraction * width << " " << top + 3 << "\nprint-cursor\n";
    clicks += click.str();
  }
  const RunResult run = run_script(sandbox, input, "xaxis time\n" + clicks + "xaxis index\n" + clicks);
  REQUIRE(run.exit_code == 0);
  const auto lines = json_lines(run.out);
  REQUIRE(lines.size() == 10);
  const auto steps = static_cast<double>(timeline.timesteps());
  size_t moved = 0;  // clicks that name another moment once x is time
  for (size_t i = 0; i < 5; ++i) {
    CAPTURE(fractions[i]);
    // Time axis: the state drawn at that fraction of the run's time, whose time is that fraction.
    const double step = warp->step_at(fractions[i] * warp->axis_end());
    CHECK(lines[i]["state"] == nearest_state(timeline, step));
    const double elapsed = lines[i]["elapsed_us"];
    CHECK(std::abs(elapsed - fractions[i] * run_us) < run_us * 0.01);
    // Event axis: the same pixel is that fraction of the steps.
    CHECK(lines[i + 5]["state"] == nearest_state(timeline, fractions[i] * steps));
    if (lines[i]["state"] != lines[i + 5]["state"]) ++moved;
  }
  CHECK(moved >= 4);
}
