// The analysis panes in the real window: splitters resize them, tree search scrolls its match
// into view, results that land without input are drawn, headless output ignores the X pointer,
// and recent files survive a change of directory.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "core/analysis/call_tree.h"
#include "core/analysis/live_elements.h"
#include "core/analysis/state_mapping.h"
#include "core/classify/category.h"
#include "core/cursor/stack_catalog.h"
#include "core/document/document.h"
#include "gui_harness.h"

using namespace snapscope;
using namespace snapscope::gui_test;
namespace fs = std::filesystem;

namespace {

constexpr int kWindowWidth = 1400;   // drive_window's size
constexpr float kWindowPadding = 8;  // ImGui's default, around the workspace

// The deepest node of the top-down tree at the peak: far below the first rows of a small pane.
std::string deepest_label(const Document& document) {
  const Timeline& timeline = document.devices.front().blocks;
  const auto catalog = catalog_from_elements_db(document.elements_db().string());
  const CallTree tree = build_call_tree(live_elements(timeline, peak_state(timeline)), *catalog);
  uint32_t deepest = CallTree::kRoot;
  for (uint32_t id = 0; id < tree.size(); ++id) {
    if (tree.node(id).depth > tree.node(deepest).depth) deepest = id;
  }
  REQUIRE(tree.node(deepest).depth >= 4);
  return tree.label(deepest, *catalog);
}

// The two images are the same apart from a few characters of text in at most two places: the
// analysis and allocator panes print how long their last computation took ("(1 ms)",
// "(0.8 ms)"), which differs from run to run. A hover highlight or a tooltip would differ over a
// whole row or box.
bool same_pixels_but_timings(const Image& a, const Image& b) {
  if (a.width != b.width || a.height != b.height) return false;
  struct Box {
    int x0, y0, x1, y1;
  };
  std::vector<Box> boxes;  // differing pixels, grouped by nearness
  const int near = 40;
  for (int y = 0; y < a.height; ++y) {
    for (int x = 0; x < a.width; ++x) {
      if (a.pixel(x, y) == b.pixel(x, y)) continue;
      auto box = std::find_if(boxes.begin(), boxes.end(), [&](const Box& c) {
        return x >= c.x0 - near && x <= c.x1 + near && y >= c.y0 - near && y <= c.y1 + near;
      });
      if (box == boxes.end()) {
        boxes.push_back({x, y, x, y});
      } else {
        box->x0 = std::min(box->x0, x), box->x1 = std::max(box->x1, x);
        box->y0 = std::min(box->y0, y), box->y1 = std::max(box->y1, y);
      }
    }
  }
  const int six_glyphs_wide = 48, one_line_tall = 14;
  return boxes.size() <= 2 && std::all_of(boxes.begin(), boxes.end(), [&](const Box& box) {
           return box.x1 - box.x0 < six_glyphs_wide && box.y1 - box.y0 < one_line_tall;
         });
}

}  // namespace

TEST_CASE("xdotool: the splitters resize the inspector and the allocator pane") {
  const fs::path sandbox = make_sandbox("panes-drag");
  const std::string input = fixture_pickle(sandbox).string();
  // The bars sit between the panes: the inspector's at its left edge, the allocator pane's at
  // its left edge (window pixels, from the sizes Ctrl+J reports before the drag).
  const std::string press = "press ctrl+j";
  // The inspector takes room only while an allocation is selected: click one at the bottom of
  // the chart (the window's layout before the selection, from print-view at drive_window's size).
  const RunResult layout = run_script(sandbox, input, "print-view\n", "1400x900");
  REQUIRE(layout.exit_code == 0);
  const auto chart = json_lines(layout.out).at(0)["chart"];
  const int select_x = static_cast<int>(chart["x"].get<double>() + chart["width"].get<double>() / 2);
  const int select_y = static_cast<int>(chart["y"].get<double>() + chart["height"].get<double>() - 3);
  const std::string select = "xdotool mousemove --window \"$W\" " + std::to_string(select_x) + " " +
                             std::to_string(select_y) + " && sleep 0.3 && xdotool click 1 && sleep 0.5";
  const std::string first = drive_window(sandbox, input, {select, press});
  const auto before = json_lines(first).at(0)["panes"];
  const float inspector = before["inspector_width"];
  REQUIRE(inspector > 0);
  const float allocator = before["allocator_width"];
  const int inspector_bar = static_cast<int>(kWindowWidth - kWindowPadding - inspector - 3);
  // It opens at its widest (30 % of the window): the first drag makes it 100 px narrower, and the
  // allocator pane's bar moves with it.
  const int allocator_bar =
      static_cast<int>(kWindowWidth - kWindowPadding - (inspector - 100) - 6 - allocator - 3);
  const auto drag = [](int x0, int y, int dx) {
    return "xdotool mousemove --window \"$W\" " + std::to_string(x0) + " " + std::to_string(y) +
           " && sleep 0.3 && xdotool mousedown 1 && sleep 0.3 && xdotool mousemove --window \"$W\" " +
           std::to_string(x0 + dx / 2) + " " + std::to_string(y) +
           " && sleep 0.3 && xdotool mousemove --window \"$W\" " + std::to_string(x0 + dx) + " " +
           std::to_string(y) + " && sleep 0.3 && xdotool mouseup 1";
  };
  const std::string out = drive_window(
      sandbox, input, {select, drag(inspector_bar, 300, 100), press, drag(allocator_bar, 820, -60), press});
  const auto lines = json_lines(out);
  REQUIRE(lines.size() == 2);
  CHECK(lines[0]["panes"]["inspector_width"].get<float>() == doctest::Approx(inspector - 100).epsilon(0.02));
  CHECK(lines[1]["panes"]["allocator_width"].get<float>() == doctest::Approx(allocator + 60).epsilon(0.03));
}

TEST_CASE(
    "xdotool: a result that lands while no input comes is drawn (no 'computing...' until the mouse moves)") {
  const fs::path sandbox = make_sandbox("panes-wake");
  const std::string input = fixture_pickle(sandbox).string();
  // P places the cursor at the peak; then nothing happens for two seconds: the analysis worker's
  // result must have been drawn in that time (Ctrl+J reports what the last frame showed).
  const std::string out = drive_window(sandbox, input, {"press p", "sleep 2", "press ctrl+j"});
  const auto lines = json_lines(out);
  REQUIRE(lines.size() == 1);
  REQUIRE(lines[0]["placed"] == true);
  CHECK(lines[0]["pane_shown_state"] == lines[0]["state"]);
}

TEST_CASE("script: tree search opens the path to the match and scrolls its row into view") {
  const fs::path sandbox = make_sandbox("panes-tree-search");
  const std::string input = fixture_pickle(sandbox).string();
  const auto document = convert_with_app(sandbox, input);
  const std::string label = deepest_label(*document);
  // A short window leaves the call tree a few rows: the deepest node is far below them.
  const RunResult run = run_script(
      sandbox, input, "cursor peak\nprint-cursor\ntree-search " + label + "\nprint-cursor\n", "1000x560");
  REQUIRE(run.exit_code == 0);
  const auto lines = json_lines(run.out);
  REQUIRE(lines.size() == 2);
  const auto search = lines[1]["tree_search"]["top_down"];
  CHECK(search["query"] == label);
  CHECK(search["matches"].get<size_t>() >= 1);
  CHECK(search["current"] == label);
  CHECK(search["current_visible"] == true);
}

TEST_CASE("script: headless screenshots do not depend on where the X pointer is") {
  const fs::path sandbox = make_sandbox("panes-pointer");
  const std::string input = fixture_pickle(sandbox).string();
  const auto shot = [&](int x, int y, const std::string& name) {
    REQUIRE(std::system(("xdotool mousemove " + std::to_string(x) + " " + std::to_string(y)).c_str()) == 0);
    const fs::path png = sandbox / name;
    const RunResult run =
        run_script(sandbox, input, "cursor peak\nprint-cursor\nscreenshot " + png.string() + "\n");
    REQUIRE(run.exit_code == 0);
    return load_png(png);
  };
  // Over the call tree's rows (hover highlight, tooltips) and over the chart; then far outside.
  const Image over_tree = shot(200, 700, "tree.png");
  const Image over_chart = shot(500, 200, "chart.png");
  const Image away = shot(1919, 1079, "away.png");
  CHECK(same_pixels_but_timings(over_tree, away));
  CHECK(same_pixels_but_timings(over_chart, away));
}

TEST_CASE("xdotool: launched on a text file renamed .pickle: the error, and no stray 'loading stacks...'") {
  const fs::path sandbox = make_sandbox("panes-bad-file");
  const fs::path bad = sandbox / "notes.pickle";
  std::ofstream(bad) << "# not a snapshot\n";
  const fs::path out = sandbox / "window.out";
  const std::string script =
      "export XDG_CACHE_HOME=" + shell_quote((sandbox / "cache").string()) +
      " XDG_CONFIG_HOME=" + shell_quote((sandbox / "config").string()) + "\n" + shell_quote(SNAPSCOPE_APP) +
      " " + shell_quote(bad.string()) + " --size 1200x800 > " + shell_quote(out.string()) +
      " &\npid=$!\nW=$(timeout 30 xdotool search --sync --name '^snapscope$' | head -1)\n"
      "xdotool windowfocus --sync \"$W\"\nsleep 2\n"
      "xdotool keydown ctrl+j; sleep 0.05; xdotool keyup ctrl+j; sleep 0.5\n"
      "xdotool keydown ctrl+q; sleep 0.05; xdotool keyup ctrl+q\n"
      "timeout 20 tail --pid=$pid -f /dev/null || kill $pid\nwait $pid || true\n";
  const fs::path driver = sandbox / "drive.sh";
  std::ofstream(driver) << script;
  REQUIRE(std::system(("bash " + shell_quote(driver.string())).c_str()) == 0);
  std::ifstream in(out);
  const auto lines = json_lines(std::string(std::istreambuf_iterator<char>(in), {}));
  REQUIRE(lines.size() == 1);
  CHECK(lines[0]["loaded"] == false);
  CHECK(lines[0]["error"].get<std::string>().find("not a pickle file") != std::string::npos);
  CHECK(lines[0]["search_status"] == "");
}

TEST_CASE("app: a file opened by a relative path is remembered by its absolute path") {
  const fs::path sandbox = make_sandbox("panes-recent");
  fixture_pickle(sandbox);
  const std::string command = "cd " + shell_quote(sandbox.string()) +
                              " && XDG_CACHE_HOME=" + shell_quote((sandbox / "cache").string()) +
                              " XDG_CONFIG_HOME=" + shell_quote((sandbox / "config").string()) + " " +
                              shell_quote(SNAPSCOPE_APP) +
                              " fixture.pickle --screenshot shot.png > /dev/null";
  REQUIRE(std::system(command.c_str()) == 0);
  std::ifstream recent(sandbox / "config" / "snapscope" / "recent-files.txt");
  std::string first;
  REQUIRE(std::getline(recent, first));
  CHECK(fs::path(first).is_absolute());
  CHECK(fs::equivalent(first, sandbox / "fixture.pickle"));
}

TEST_CASE("script: colour by category paints the chart in category colours, with a legend and findings") {
  const fs::path sandbox = make_sandbox("panes-categories");
  const std::string input = fixture_pickle(sandbox).string();
  const fs::path png = sandbox / "categories.png";
  const RunResult run = run_script(sandbox, input,
                                   "color category\ncursor peak\ntab findings\nscreenshot " + png.string() +
                                       "\nfinding 0\nprint-selection\n");
  REQUIRE(run.exit_code == 0);
  const auto lines = json_lines(run.out);
  REQUIRE(lines.size() == 2);
  CHECK(lines[0]["kind"] == "peak");
  CHECK(lines[0]["title"].get<std::string>().starts_with("Peak "));
  const std::string category = lines[1]["category"].get<std::string>();
  CHECK(!category.empty());
  CHECK(lines[1]["category_reason"].get<std::string>().starts_with(category + ": "));
  // The generated training loop has parameters, gradients, optimizer state and activations: each
  // category's own colour covers a good part of the chart (legend squares alone are ~200 pixels).
  const Image image = load_png(png);
  const auto to_rgb = [](const Rgba& c) {
    return (uint32_t(std::lround(c.r * 255)) << 16) | (uint32_t(std::lround(c.g * 255)) << 8) |
           uint32_t(std::lround(c.b * 255));
  };
  CategoryNames names;
  const std::vector<Rgba> palette = category_palette(names);
  for (const Category shown : {Category::Parameter, Category::OptimizerState, Category::Activation}) {
    const uint32_t rgb = to_rgb(palette[category_id(shown)]);
    size_t pixels = 0;
    for (int y = 0; y < image.height; ++y) {
      for (int x = 0; x < image.width; ++x) pixels += image.pixel(x, y) == rgb;
    }
    CAPTURE(builtin_category_name(shown));
    CHECK(pixels > 2000);
  }
  // The default palette's first colour (memory_viz colouring) is gone from the chart.
  size_t default_pixels = 0;
  const uint32_t default_rgb = to_rgb(kDefaultPalette[0]);
  for (int y = 0; y < image.height; ++y) {
    for (int x = 0; x < image.width; ++x) default_pixels += image.pixel(x, y) == default_rgb;
  }
  CHECK(default_pixels < 50);
}
