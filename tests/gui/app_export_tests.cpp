// File > Export through the real app: the `export` script command and Ctrl+Shift+E typed into the
// real window (xdotool) write the same files core/export writes from the converted directory, and
// the chart PNG (dialog, --export-png) is the chart with its axes, nothing else of the window.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/analysis/state_mapping.h"
#include "core/export/export.h"
#include "core/export/export_source.h"
#include "gui_harness.h"

using namespace snapscope;
using namespace snapscope::gui_test;
namespace fs = std::filesystem;

namespace {

constexpr int kAxisLeft = 84, kAxisBottom = 22;  // ChartPanel's axis margins

std::string read_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

uint64_t total_weight(const nlohmann::json& speedscope) {
  uint64_t total = 0;
  for (const auto& weight : speedscope["profiles"][0]["weights"]) total += weight.get<uint64_t>();
  return total;
}

// The same export made by core/export from the directory the app converted into.
std::string core_export(const Document& document, ExportFormat format, size_t state, const fs::path& path) {
  const AnalysisSource source = load_analysis_source(document.directory.string());
  ExportRequest request;
  request.format = format;
  request.state = state;
  export_to_file(export_input(source), request, path.string());
  return read_text(path);
}

}  // namespace

TEST_CASE("script: export writes core/export's files at the cursor, and the chart as PNG") {
  const fs::path sandbox = make_sandbox("export-script");
  const std::string input = fixture_pickle(sandbox).string();
  const auto document = convert_with_app(sandbox, input);
  const Timeline& timeline = document->devices.front().blocks;
  const size_t state = timeline.action_count() / 2;
  const RunResult run =
      run_script(sandbox, input,
                 "cursor state " + std::to_string(state) + "\nexport moment-csv " +
                     (sandbox / "m.csv").string() + "\nexport categories-csv " +
                     (sandbox / "c.csv").string() + "\nexport speedscope " + (sandbox / "s.json").string() +
                     "\nprint-view\nexport png " + (sandbox / "chart.png").string() + "\n",
                 "1200x800");
  REQUIRE(run.exit_code == 0);
  CHECK(read_text(sandbox / "m.csv") ==
        core_export(*document, ExportFormat::MomentCsv, state, sandbox / "core.csv"));
  CHECK(read_text(sandbox / "c.csv") ==
        core_export(*document, ExportFormat::CategoriesCsv, state, sandbox / "core-categories.csv"));
  const auto speedscope = nlohmann::json::parse(read_text(sandbox / "s.json"));
  CHECK(total_weight(speedscope) == timeline.total_at_state(state));

  const auto view = json_lines(run.out).at(0);
  const Image chart = load_png(sandbox / "chart.png");
  CHECK(chart.width == static_cast<int>(view["chart"]["width"].get<double>()) + kAxisLeft);
  CHECK(chart.height == static_cast<int>(view["chart"]["height"].get<double>()) + kAxisBottom);
  // --export-png draws the same chart without a script; its --size is the PNG's (chart and axes).
  const std::string png_size = std::to_string(chart.width) + "x" + std::to_string(chart.height);
  const RunResult direct =
      run_app(sandbox, shell_quote(input) + " --size " + png_size + " --no-cursor --export-png " +
                           shell_quote((sandbox / "direct.png").string()));
  REQUIRE(direct.exit_code == 0);
  const Image same = load_png(sandbox / "direct.png");
  REQUIRE(same.width == chart.width);
  REQUIRE(same.height == chart.height);
  size_t differing = 0;
  for (int y = 0; y < chart.height; ++y) {
    for (int x = kAxisLeft; x < chart.width; ++x) differing += chart.pixel(x, y) != same.pixel(x, y);
  }
  // The cursor line drawn in the scripted run is the only difference allowed.
  CHECK(differing <= static_cast<size_t>(chart.height) * 3);
}

TEST_CASE("xdotool: Ctrl+Shift+E, a typed file name and Enter export the speedscope profile at the peak") {
  const fs::path sandbox = make_sandbox("export-xdotool");
  const std::string input = fixture_pickle(sandbox).string();
  const auto document = convert_with_app(sandbox, input);
  const fs::path target = sandbox / "typed.speedscope.json";
  drive_window(sandbox, input,
               {"press ctrl+shift+e", "sleep 1", "press ctrl+a",
                "xdotool type --delay 40 " + shell_quote(target.string()), "sleep 0.5", "press Return",
                "sleep 1", "press Escape"});
  REQUIRE(fs::exists(target));
  const Timeline& timeline = document->devices.front().blocks;
  auto exported = nlohmann::json::parse(read_text(target));
  auto expected = nlohmann::json::parse(
      core_export(*document, ExportFormat::Speedscope, peak_state(timeline), sandbox / "core.json"));
  CHECK(total_weight(exported) == timeline.peak_bytes());
  for (auto* file : {&exported, &expected}) {
    file->erase("name");
    (*file)["profiles"][0].erase("name");
  }
  CHECK(exported == expected);
}

namespace {

// Pixel columns an svg export covers: some shape spans the column's centre.
std::vector<bool> svg_columns(const std::string& svg, int width) {
  std::vector<bool> covered(static_cast<size_t>(width), false);
  std::istringstream in(svg);
  for (std::string line; std::getline(in, line);) {
    if (!line.starts_with("<rect class=")) continue;  // ramps lie between rectangles' columns
    const auto number_after = [&](const std::string& key) {
      return std::stod(line.substr(line.find(" " + key + "=\"") + key.size() + 3));
    };
    const double x0 = number_after("x"), x1 = x0 + number_after("width");
    for (int c = std::max(0, static_cast<int>(x0)); c < std::min(width, static_cast<int>(x1) + 1); ++c) {
      if (c + 0.5 >= x0 && c + 0.5 <= x1) covered[static_cast<size_t>(c)] = true;
    }
  }
  return covered;
}

}  // namespace

TEST_CASE("script: the svg export covers the same pixel columns as the chart PNG") {
  const fs::path sandbox = make_sandbox("export-svg");
  const std::string input = fixture_pickle(sandbox).string();
  const RunResult run = run_script(sandbox, input,
                                   // A few frames first: the layout of the first frames can still move.
                                   "print-view\nexport png " + (sandbox / "chart.png").string() +
                                       "\nexport svg " + (sandbox / "chart.svg").string() + "\n",
                                   "1200x800");
  REQUIRE(run.exit_code == 0);
  const auto view = json_lines(run.out).at(0);
  const int width = static_cast<int>(view["chart"]["width"].get<double>());
  const int height = static_cast<int>(view["chart"]["height"].get<double>());
  const std::string svg = read_text(sandbox / "chart.svg");
  CHECK(svg.find("width=\"" + std::to_string(width) + "\" height=\"" + std::to_string(height) + "\"") !=
        std::string::npos);
  const std::vector<bool> covered = svg_columns(svg, width);
  const Image png = load_png(sandbox / "chart.png");
  REQUIRE(png.width == width + kAxisLeft);
  size_t mismatched = 0, filled_columns = 0;
  for (int c = 0; c < width; ++c) {
    bool filled = false;
    for (int y = 0; y < height && !filled; ++y) {
      const uint32_t rgb = png.pixel(kAxisLeft + c, y);
      filled = std::max({rgb >> 16, (rgb >> 8) & 0xff, rgb & 0xff}) > 60;  // content, not background/grid
    }
    filled_columns += filled;
    mismatched += filled != covered[static_cast<size_t>(c)];
  }
  CHECK(filled_columns > static_cast<size_t>(width) / 2);
  CHECK(mismatched <= 2);  // the chart's first and last column may round either way
}

TEST_CASE("--export-png --size is the PNG's size, as --export svg's --size is the svg's") {
  // Issue 40: --size meant the chart for svg and the window for --export-png.
  const fs::path sandbox = make_sandbox("export-png-size");
  const std::string input = fixture_pickle(sandbox).string();
  for (const auto& [width, height] : {std::pair{640, 360}, std::pair{1600, 600}}) {
    const std::string size = std::to_string(width) + "x" + std::to_string(height);
    CAPTURE(size);
    const fs::path png = sandbox / ("chart-" + size + ".png");
    const RunResult run = run_app(sandbox, shell_quote(input) + " --size " + size + " --export-png " +
                                               shell_quote(png.string()) + " 2>&1");
    REQUIRE(run.exit_code == 0);
    const Image image = load_png(png);
    CHECK(image.width == width);
    CHECK(image.height == height);
  }
  // Without --size: svg's default, 1600x600.
  const RunResult plain =
      run_app(sandbox, shell_quote(input) + " --export-png " + shell_quote((sandbox / "plain.png").string()));
  REQUIRE(plain.exit_code == 0);
  const Image image = load_png(sandbox / "plain.png");
  CHECK(image.width == 1600);
  CHECK(image.height == 600);
  // Too small for the axes: one line, no file.
  const RunResult tiny = run_app(sandbox, shell_quote(input) + " --size 70x64 --export-png " +
                                              shell_quote((sandbox / "tiny.png").string()) + " 2>&1");
  CHECK(tiny.exit_code == 1);
  CHECK(tiny.out.starts_with(
      "snapscope: --size 70x64: the chart and its axes cannot be laid out at that size"));
  CHECK_FALSE(fs::exists(sandbox / "tiny.png"));
}
