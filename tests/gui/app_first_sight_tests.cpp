// The window answers at first sight (issue 36): the cursor opens at the peak with every pane
// filled, the inspector takes no room until something is selected, phase labels never overlap,
// run B is visible over run A, and a script command that cannot apply is an error.
#include <doctest/doctest.h>

#include <algorithm>
#include <fstream>
#include <string>

#include "gui_harness.h"

namespace snapscope {
namespace {

namespace fs = std::filesystem;
using gui_test::fixture_pickle;
using gui_test::json_lines;
using gui_test::load_png;
using gui_test::make_sandbox;
using gui_test::run_script;
using gui_test::shell_quote;

constexpr const char* kSizes[] = {"1024x768", "1920x1080"};

fs::path generated(const fs::path& sandbox, const std::string& name, const std::string& options) {
  const fs::path pickle = sandbox / name;
  const std::string command =
      shell_quote(SNAPSCOPE_GEN) + " -o " + shell_quote(pickle.string()) + " " + options + " > /dev/null";
  REQUIRE(std::system(command.c_str()) == 0);
  return pickle;
}

bool overlap(const nlohmann::json& a, const nlohmann::json& b) {
  return a[0].get<float>() < b[2].get<float>() && b[0].get<float>() < a[2].get<float>() &&
         a[1].get<float>() < b[3].get<float>() && b[1].get<float>() < a[3].get<float>();
}

}  // namespace

TEST_CASE("script: the window opens with the cursor at the peak and every cursor pane filled") {
  const fs::path sandbox = make_sandbox("first-sight-open");
  const std::string input = fixture_pickle(sandbox).string();
  for (const char* size : kSizes) {
    CAPTURE(size);
    const auto run = run_script(sandbox, input, "print-cursor\nprint-view\n", size);
    REQUIRE(run.exit_code == 0);
    const auto lines = json_lines(run.out);
    REQUIRE(lines.size() == 2);
    const auto& cursor = lines[0];
    CHECK(cursor["placed"] == true);
    CHECK(cursor["state"] == cursor["peak_state"]);
    CHECK(cursor["allocated"] == cursor["peak_bytes"]);
    CHECK(cursor["moment"]["rows"].get<size_t>() > 0);
    CHECK(cursor["moment"]["rows_sum"] == cursor["peak_bytes"]);
    // Nothing selected: the inspector takes no width, the chart has the window's.
    CHECK(cursor["panes"]["inspector_width"] == 0);
    CHECK(lines[1]["inspector_shown"] == false);
    const int window_width = std::stoi(size);
    CHECK(lines[1]["chart"]["width"].get<double>() > 0.8 * window_width);
  }
  // --no-cursor: told otherwise, it opens without one.
  const fs::path script = sandbox / "no-cursor.txt";
  std::ofstream(script) << "print-cursor\n";
  const auto plain = gui_test::run_app(
      sandbox, shell_quote(input) + " --no-cursor --size 1024x768 --script " + shell_quote(script.string()));
  REQUIRE(plain.exit_code == 0);
  const auto lines = json_lines(plain.out);
  REQUIRE(lines.size() == 1);
  CHECK(lines[0]["placed"] == false);
}

TEST_CASE("script: selecting an allocation shows the inspector at a bounded width") {
  const fs::path sandbox = make_sandbox("first-sight-inspector");
  const std::string input = fixture_pickle(sandbox).string();
  const auto run = run_script(sandbox, input, "finding 0\nprint-cursor\nprint-view\n", "1024x768");
  REQUIRE(run.exit_code == 0);
  const auto lines = json_lines(run.out);
  REQUIRE(lines.size() == 3);
  CHECK(lines[2]["inspector_shown"] == true);
  const float inspector = lines[1]["panes"]["inspector_width"];
  CHECK(inspector > 100);
  CHECK(inspector <= 0.3f * 1024 + 1);
}

TEST_CASE("script: phase labels never overlap, zoomed out or in") {
  const fs::path sandbox = make_sandbox("first-sight-phases");
  const std::string input = fixture_pickle(sandbox).string();
  for (const char* size : kSizes) {
    CAPTURE(size);
    const auto run =
        run_script(sandbox, input, "print-view\nview 0:400\nprint-view\nview 0:40\nprint-view\n", size);
    REQUIRE(run.exit_code == 0);
    const auto lines = json_lines(run.out);
    REQUIRE(lines.size() == 3);
    size_t labels = 0;
    for (const auto& line : lines) {
      const auto& rects = line["phase_labels"];
      labels += rects.size();
      const float chart_left = line["chart"]["x"],
                  chart_right = chart_left + line["chart"]["width"].get<float>();
      for (size_t i = 0; i < rects.size(); ++i) {
        CHECK(rects[i][0].get<float>() >= chart_left);
        CHECK(rects[i][2].get<float>() <= chart_right + 1);
        for (size_t j = i + 1; j < rects.size(); ++j) CHECK_FALSE(overlap(rects[i], rects[j]));
      }
    }
    CHECK(labels > 0);  // the generator's training steps are annotated
  }
}

TEST_CASE("script: run B's total line is drawn over run A on every column where B is defined") {
  const fs::path sandbox = make_sandbox("first-sight-compare");
  const std::string a = fixture_pickle(sandbox).string();
  const std::string b = generated(sandbox, "b.pickle", "--events 4000 --seed 8").string();
  for (const char* size : kSizes) {
    CAPTURE(size);
    const fs::path png = sandbox / (std::string("compare-") + size + ".png");
    const auto run = run_script(
        sandbox, a, "compare " + b + "\nalign events\nprint-view\nscreenshot " + png.string() + "\n", size);
    REQUIRE(run.exit_code == 0);
    const auto lines = json_lines(run.out);
    REQUIRE(lines.size() == 1);
    const auto& chart = lines[0]["chart"];
    const int x0 = chart["x"].get<int>(), y0 = chart["y"].get<int>();
    const int width = chart["width"].get<int>(), height = chart["height"].get<int>();
    const auto image = load_png(png);
    // B's total is cyan (80, 240, 255) on a black halo: no allocation colour is that close to it.
    const auto is_b = [](uint32_t rgb) {
      const int r = int(rgb >> 16), g = int((rgb >> 8) & 0xff), bl = int(rgb & 0xff);
      return r < 140 && g > 200 && bl > 220;
    };
    int columns_with_b = 0;
    for (int x = x0 + 2; x < x0 + width - 2; ++x) {
      bool found = false;
      for (int y = y0; y < y0 + height && !found; ++y) found = is_b(image.pixel(x, y));
      columns_with_b += found;
    }
    CHECK(columns_with_b >= width - 6);  // every column but the frame's edges
  }
}

TEST_CASE("script: commands that cannot apply are errors with a non-zero exit") {
  const fs::path sandbox = make_sandbox("first-sight-errors");
  const std::string input = fixture_pickle(sandbox).string();
  const auto device = run_script(sandbox, input, "device 7\n");
  CHECK(device.exit_code != 0);
  const auto compare_tab = run_script(sandbox, input, "tab compare\n");
  CHECK(compare_tab.exit_code != 0);
  const fs::path untimed = generated(sandbox, "untimed.pickle", "--events 600 --seed 2 --no-timestamps");
  const auto time_axis = run_script(sandbox, untimed.string(), "xaxis time\n");
  CHECK(time_axis.exit_code != 0);
  // Every tab is reachable, in both panes.
  const auto tabs = run_script(sandbox, input,
                               "tab moment\ntab phases\ntab categories\ntab findings\ntab allocator\n"
                               "tab events\ntab sql\ntab settings\nprint-cursor\n");
  CHECK(tabs.exit_code == 0);
}

TEST_CASE("script: click acts at window coordinates, chart-click on the chart") {
  const fs::path sandbox = make_sandbox("first-sight-click");
  const std::string input = fixture_pickle(sandbox).string();
  const auto first = run_script(sandbox, input, "print-view\n");
  REQUIRE(first.exit_code == 0);
  const auto view = json_lines(first.out).at(0)["chart"];
  // Empty space near the top of the chart, a quarter of the way in: both clicks put the cursor
  // there, away from the peak it opened at.
  const int x = view["x"].get<int>() + view["width"].get<int>() / 4, y = view["y"].get<int>() + 3;
  const std::string at = std::to_string(x) + " " + std::to_string(y);
  const auto run = run_script(
      sandbox, input,
      "print-cursor\nclick " + at + "\nprint-cursor\ncursor peak\nchart-click " + at + "\nprint-cursor\n");
  REQUIRE(run.exit_code == 0);
  const auto lines = json_lines(run.out);
  REQUIRE(lines.size() == 3);
  CHECK(lines[0]["state"] == lines[0]["peak_state"]);
  CHECK(lines[1]["state"] != lines[0]["state"]);
  CHECK(lines[2]["state"] == lines[1]["state"]);
}

}  // namespace snapscope
