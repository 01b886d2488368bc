// Screenshots of the real app checked pixel by pixel against the core's layout.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/document/document.h"
#include "core/timeline/memory_pyramid.h"
#include "core/util/chart_palette.h"
#include "core/view/view_transform.h"
#include "gui_harness.h"

using namespace snapscope;
using namespace snapscope::gui_test;
namespace fs = std::filesystem;

namespace {

struct ChartRect {
  int x = 0, y = 0, width = 0, height = 0;
  DataRect view;
};

ChartRect parse_view(const std::string& line) {
  const auto json = nlohmann::json::parse(line);
  ChartRect rect;
  rect.x = static_cast<int>(json["chart"]["x"].get<double>());
  rect.y = static_cast<int>(json["chart"]["y"].get<double>());
  rect.width = static_cast<int>(json["chart"]["width"].get<double>());
  rect.height = static_cast<int>(json["chart"]["height"].get<double>());
  rect.view = {json["view"]["x0"], json["view"]["x1"], json["view"]["y0"], json["view"]["y1"]};
  return rect;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// Chart content is a palette color; the background and grid are darker.
bool is_filled(uint32_t rgb) {
  const uint32_t r = rgb >> 16, g = (rgb >> 8) & 0xff, b = rgb & 0xff;
  return std::max({r, g, b}) > 60;
}

// The renderer's color for a key, as 8-bit channels may round it: each within one step.
bool has_palette_color(uint32_t rgb, uint32_t color_key) {
  const Rgba& color = kDefaultPalette[color_key % kDefaultPalette.size()];
  const float channels[3] = {color.r, color.g, color.b};
  for (int i = 0; i < 3; ++i) {
    const auto actual = static_cast<int>((rgb >> (16 - 8 * i)) & 0xff);
    if (std::abs(actual - static_cast<int>(std::lround(channels[i] * 255))) > 1) return false;
  }
  return true;
}

// Every 5th pixel column's top edge lies where the core's column maximum puts it.
void check_column_tops(const fs::path& sandbox, const std::string& input) {
  const fs::path png = sandbox / "full.png";
  const RunResult run =
      run_script(sandbox, input, "cursor none\nprint-view\nscreenshot " + png.string() + "\n");
  REQUIRE(run.exit_code == 0);
  const ChartRect chart = parse_view(lines_of(run.out).at(0));
  const Image image = load_png(png);
  const auto document = open_converted(sandbox, input);
  const DeviceDocument& device = document->devices.front();
  const MemoryPyramid pyramid(device.blocks);
  const auto columns = pyramid.columns(chart.view.x0, chart.view.x1, chart.width);
  const double bytes_per_px = chart.view.height() / chart.height;
  int checked = 0;
  for (int column = 2; column < chart.width - 2; column += 5) {
    const double expected_height = static_cast<double>(columns[column].max_bytes) / bytes_per_px;
    if (expected_height < 2) continue;  // nothing visible to measure
    int top = chart.y + chart.height;
    for (int y = chart.y + 2; y < chart.y + chart.height; ++y) {
      if (is_filled(image.pixel(chart.x + column, y))) {
        top = y;
        break;
      }
    }
    const double measured_height = chart.y + chart.height - top;
    INFO("column " << column << " expected " << expected_height << " px, measured " << measured_height);
    CHECK(std::abs(measured_height - expected_height) <= 2.0);
    ++checked;
  }
  CHECK(checked > chart.width / 10);
}

}  // namespace

TEST_CASE("column tops of the full view match the core's totals") {
  const fs::path sandbox = make_sandbox("tops");
  check_column_tops(sandbox, fixture_pickle(sandbox).string());
}

TEST_CASE("a known allocation is drawn in its color at full zoom and picks back to itself") {
  const fs::path sandbox = make_sandbox("zoom");
  const std::string input = fixture_pickle(sandbox).string();
  const auto document = convert_with_app(sandbox, input);
  const Timeline& timeline = document->devices.front().blocks;
  // The largest allocation made during the trace: tall enough to aim at.
  uint32_t elem = kNoIndex;
  for (uint32_t e = 0; e < timeline.element_count(); ++e) {
    if (timeline.ever_live(e) && timeline.alloc_state(e) > 0 &&
        (elem == kNoIndex || timeline.element(e).size > timeline.element(elem).size)) {
      elem = e;
    }
  }
  REQUIRE(elem != kNoIndex);
  const size_t alloc_action = timeline.alloc_state(elem) - 1;
  const double step = static_cast<double>(timeline.step_begin(alloc_action)) + 0.5;
  const double size = static_cast<double>(timeline.element(elem).size);
  const double bottom = static_cast<double>(timeline.offset_of(elem, timeline.alloc_state(elem)));
  std::ostringstream view;
  view.precision(17);
  view << "view " << step - 4 << ":" << step + 4 << "," << bottom - size << ":" << bottom + 2 * size << "\n";
  const fs::path png = sandbox / "zoom.png";
  const RunResult first = run_script(sandbox, input, view.str() + "print-view\n");
  REQUIRE(first.exit_code == 0);
  const ChartRect chart = parse_view(lines_of(first.out).at(0));
  // Centre of the allocation on screen: x of `step`, y halfway up the allocation.
  const int px = chart.x + static_cast<int>((step - chart.view.x0) / chart.view.width() * chart.width);
  const int py = chart.y + static_cast<int>((1 - (bottom + size / 2 - chart.view.y0) / chart.view.height()) *
                                            chart.height);
  const RunResult run = run_script(sandbox, input,
                                   view.str() + "screenshot " + png.string() + "\nclick " +
                                       std::to_string(px) + " " + std::to_string(py) + "\nprint-selection\n");
  REQUIRE(run.exit_code == 0);
  const Image image = load_png(png);
  INFO("pixel " << std::hex << image.pixel(px, py));
  CHECK(has_palette_color(image.pixel(px, py), elem));  // default color key: the element index
  const auto selection = nlohmann::json::parse(lines_of(run.out).at(0));
  CHECK(selection["elem"] == elem);
  CHECK(selection["size"] == timeline.element(elem).size);
  CHECK(selection["alloc_event"] == timeline.element(elem).alloc_event);
}

// The chart is built on a worker thread and a stale image is shown shifted and scaled until the
// new one is ready: a screenshot taken right after a view change must still show the final image,
// identical to one taken by a run that opened straight at that view.
TEST_CASE("a screenshot after a view change shows the final frame, never the placeholder") {
  const fs::path sandbox = make_sandbox("settle");
  const std::string input = fixture_pickle(sandbox).string();
  const RunResult probe = run_script(sandbox, input, "print-view\n");
  REQUIRE(probe.exit_code == 0);
  const ChartRect whole = parse_view(lines_of(probe.out).at(0));
  std::ostringstream zoomed;
  zoomed.precision(17);
  zoomed << "view " << whole.view.x0 + whole.view.width() * 0.3 << ":"
         << whole.view.x0 + whole.view.width() * 0.4 << "\n";
  const fs::path moved = sandbox / "moved.png", direct = sandbox / "direct.png";
  const RunResult first = run_script(sandbox, input,
                                     "screenshot " + (sandbox / "whole.png").string() + "\n" + zoomed.str() +
                                         "screenshot " + moved.string() + "\nprint-view\n");
  REQUIRE(first.exit_code == 0);
  const RunResult second = run_script(sandbox, input, zoomed.str() + "screenshot " + direct.string() + "\n");
  REQUIRE(second.exit_code == 0);
  const ChartRect chart = parse_view(lines_of(first.out).at(0));
  const Image a = load_png(moved), b = load_png(direct);
  int differing = 0;
  for (int y = chart.y; y < chart.y + chart.height; ++y) {
    for (int x = chart.x; x < chart.x + chart.width; ++x) differing += a.pixel(x, y) != b.pixel(x, y);
  }
  CHECK(differing == 0);
  int filled = 0;
  for (int x = chart.x; x < chart.x + chart.width; ++x)
    filled += is_filled(a.pixel(x, chart.y + chart.height - 2));
  CHECK(filled > chart.width / 4);  // something was drawn at all
}

TEST_CASE("a file that is not a snapshot is reported and nothing is drawn") {
  const fs::path sandbox = make_sandbox("bad");
  const fs::path bad = sandbox / "bad.pickle";
  std::ofstream(bad) << "this is not a pickle";
  const RunResult run = run_app(sandbox, shell_quote(bad.string()) + " --screenshot " +
                                             shell_quote((sandbox / "bad.png").string()) + " 2>&1");
  CHECK(run.exit_code == 1);
  CHECK(run.out.find("bad.pickle") != std::string::npos);
  CHECK_FALSE(fs::exists(sandbox / "bad.png"));
}

TEST_CASE("real snapshots: column tops match (SNAPSCOPE_SNAPSHOT_DIR)") {
  const char* directory = std::getenv("SNAPSCOPE_SNAPSHOT_DIR");
  if (directory == nullptr || directory[0] == '\0') return;  // only run when configured
  int checked = 0;
  for (const auto& entry : fs::directory_iterator(directory)) {
    if (entry.path().extension() != ".pickle" || checked >= 2) continue;
    INFO(entry.path());
    check_column_tops(make_sandbox("real-" + std::to_string(checked)), entry.path().string());
    ++checked;
  }
  CHECK(checked > 0);
}
