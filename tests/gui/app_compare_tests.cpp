// Two runs compared through the real window (snapscope A B / script compare): the Compare tab's
// diff of a planted regression (a location that grows, a new one, a vanished one) is exact, and
// run B's curve is drawn over A's chart.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "gui_harness.h"

using namespace snapscope::gui_test;
namespace fs = std::filesystem;

namespace {

nlohmann::json alloc(uint64_t addr, uint64_t size, const std::string& site, int64_t time_us) {
  return {{"action", "alloc"},
          {"addr", addr},
          {"size", size},
          {"stream", 0},
          {"time_us", time_us},
          {"frames",
           {{{"name", site}, {"filename", site + ".py"}, {"line", 1}},
            {{"name", "main"}, {"filename", "m.py"}, {"line", 2}}}}};
}

// A JSON snapshot (the same dict as a pickle): one device, every allocation live at the end.
fs::path write_run(const fs::path& dir, const std::string& name, const nlohmann::json& trace) {
  const fs::path path = dir / (name + ".json");
  std::ofstream(path)
      << nlohmann::json{{"segments", nlohmann::json::array()}, {"device_traces", {trace}}}.dump();
  return path;
}

// The planted regression. Before: grow 100 MiB, gone 50 MiB, same 30 MiB. After: grow 400 MiB,
// new 70 MiB, same 30 MiB.
std::pair<fs::path, fs::path> write_planted_pair(const fs::path& dir) {
  const uint64_t mib = uint64_t{1} << 20;
  return {write_run(dir, "before",
                    {alloc(0x1000000, 100 * mib, "grow", 1), alloc(0x20000000, 50 * mib, "gone", 2),
                     alloc(0x30000000, 30 * mib, "same", 3)}),
          write_run(dir, "after",
                    {alloc(0x1000000, 400 * mib, "grow", 1), alloc(0x20000000, 70 * mib, "new", 2),
                     alloc(0x30000000, 30 * mib, "same", 3)})};
}

}  // namespace

TEST_CASE("script: compare two runs: the diff at the peaks names what grew, what is new and what vanished") {
  const fs::path sandbox = make_sandbox("compare-planted");
  const uint64_t mib = uint64_t{1} << 20;
  const auto [a, b] = write_planted_pair(sandbox);
  const fs::path png = sandbox / "compare.png";
  const RunResult run =
      run_script(sandbox, a.string(),
                 "cursor none\ncompare " + b.string() +
                     "\ntab compare\nprint-compare\nprint-view\nscreenshot " + png.string() + "\n");
  REQUIRE(run.exit_code == 0);
  const auto lines = json_lines(run.out);
  REQUIRE(lines.size() == 2);
  const nlohmann::json& diff = lines[0];
  CHECK(diff["at_peaks"] == true);
  CHECK(diff["peak_a"] == 180 * mib);
  CHECK(diff["peak_b"] == 500 * mib);
  REQUIRE(diff["rows"].size() == 4);
  CHECK(diff["rows"][0]["location"] == "grow.py:1 (grow)");
  CHECK(diff["rows"][0]["delta"] == 300 * mib);
  CHECK(diff["rows"][1]["location"] == "new.py:1 (new)");
  CHECK(diff["rows"][1]["status"] == "new");
  CHECK(diff["rows"][2]["location"] == "gone.py:1 (gone)");
  CHECK(diff["rows"][2]["status"] == "vanished");
  CHECK(diff["rows"][2]["delta"] == -50 * static_cast<int64_t>(mib));
  CHECK(diff["rows"][3]["delta"] == 0);
  // The y axis holds B's peak, and B's total (a cyan line on a dark halo) runs above A's 180 MiB
  // of allocations: cyan pixels in the chart's upper part, below the legend.
  const nlohmann::json& view = lines[1];
  CHECK(view["view"]["y1"].get<double>() >= 500.0 * mib);
  const Image image = load_png(png);
  const int x0 = view["chart"]["x"].get<int>(), y0 = view["chart"]["y"].get<int>() + 40;
  const int x1 = x0 + view["chart"]["width"].get<int>(), y1 = y0 + view["chart"]["height"].get<int>() / 2;
  size_t white = 0;
  for (int y = y0; y < y1; ++y) {
    for (int x = x0; x < x1; ++x) {
      const uint32_t rgb = image.pixel(x, y);
      white += (rgb >> 16) < 0x8C && ((rgb >> 8) & 0xFF) >= 0xC8 && (rgb & 0xFF) >= 0xDC;
    }
  }
  CHECK(white > 400);
}

TEST_CASE("script: compare with a file that is not a snapshot fails") {
  const fs::path sandbox = make_sandbox("compare-bad");
  const fs::path a = write_run(sandbox, "a", nlohmann::json::array({alloc(0x1000, 100, "x", 1)}));
  const fs::path bad = sandbox / "bad.pickle";
  std::ofstream(bad) << "not a pickle";
  const RunResult run = run_script(sandbox, a.string(), "compare " + bad.string() + "\n");
  CHECK(run.exit_code != 0);
  CHECK(run.out.empty());
}

TEST_CASE(
    "script: snapscope DIR shows the rank table with the planted outlier, and two ranks open as a "
    "comparison") {
  const fs::path sandbox = make_sandbox("compare-ranks");
  const fs::path job = sandbox / "job";
  fs::create_directories(job);
  const uint64_t mib = uint64_t{1} << 20;
  for (int rank = 0; rank < 4; ++rank) {
    const uint64_t activations = rank == 2 ? 300 * mib : 100 * mib;  // rank 2 holds 3x
    write_run(job, "rank" + std::to_string(rank),
              nlohmann::json::array(
                  {alloc(0x1000000, 50 * mib, "shard", 1), alloc(0x40000000, activations, "layer", 2)}));
  }
  const RunResult run = run_script(sandbox, job.string(), "print-ranks\nrank-compare 0 2\nprint-compare\n");
  REQUIRE(run.exit_code == 0);
  const auto lines = json_lines(run.out);
  REQUIRE(lines.size() == 2);
  const nlohmann::json& table = lines[0];
  REQUIRE(table["ranks"].size() == 4);
  CHECK(table["median_peak"] == 150 * mib);
  CHECK(table["ranks"][2]["outlier"] == true);
  CHECK(table["ranks"][2]["peak_bytes"] == 350 * mib);
  CHECK(table["ranks"][0]["outlier"] == false);
  const nlohmann::json& diff = lines[1];
  CHECK(diff["peak_a"] == 150 * mib);
  CHECK(diff["peak_b"] == 350 * mib);
  CHECK(diff["rows"][0]["location"] == "layer.py:1 (layer)");
  CHECK(diff["rows"][0]["delta"] == 200 * mib);
}

TEST_CASE(
    "script: stacked comparison: B's own chart below A's, rows by call path, a clicked row highlighted in "
    "both runs") {
  const fs::path sandbox = make_sandbox("compare-stacked");
  const uint64_t mib = uint64_t{1} << 20;
  const auto [a, b] = write_planted_pair(sandbox);
  const fs::path png = sandbox / "stacked.png";
  // Rows by call path: all live memory > m.py:2 (main) > its four callees, the largest change first.
  const RunResult run =
      run_script(sandbox, a.string(),
                 "compare " + b.string() +
                     "\ncompare-layout stacked\ntab compare\ncompare-by path\ncompare-row 2\n"
                     "print-compare\nprint-view\nscreenshot " +
                     png.string() + "\n");
  REQUIRE(run.exit_code == 0);
  const auto lines = json_lines(run.out);
  REQUIRE(lines.size() == 2);
  const nlohmann::json& diff = lines[0];
  CHECK(diff["layout"] == "stacked");
  const auto& paths = diff["path_rows"];
  REQUIRE(paths.size() == 6);
  CHECK(paths[0]["path"] == "all live memory");
  CHECK(paths[0]["delta"] == 320 * mib);
  CHECK(paths[1]["path"] == "m.py:2 (main)");
  CHECK(paths[2]["path"] == "m.py:2 (main) > grow.py:1 (grow)");
  CHECK(paths[2]["delta"] == 300 * mib);
  CHECK(paths[3]["status"] == "new");
  CHECK(paths[4]["status"] == "vanished");
  CHECK(paths[5]["delta"] == 0);
  // The clicked row is one allocation in each run.
  CHECK(diff["highlighted"]["row"] == "m.py:2 (main) > grow.py:1 (grow)");
  CHECK(diff["highlighted"]["a_elements"] == 1);
  CHECK(diff["highlighted"]["b_elements"] == 1);
  // A's chart takes the upper half; B's chart below it outlines the highlight (magenta) too.
  const nlohmann::json& view = lines[1];
  const Image image = load_png(png);
  const int x0 = view["chart"]["x"].get<int>(), x1 = x0 + view["chart"]["width"].get<int>();
  const int a_top = view["chart"]["y"].get<int>(), a_bottom = a_top + view["chart"]["height"].get<int>();
  const auto magenta_rows = [&](int from, int to) {
    size_t count = 0;
    for (int y = from; y < to; ++y) {
      for (int x = x0; x < x1; ++x) {
        const uint32_t rgb = image.pixel(x, y);  // the outline is antialiased: near magenta
        count += (rgb >> 16) >= 0xC0 && ((rgb >> 8) & 0xFF) <= 0x60 && (rgb & 0xFF) >= 0xC0;
      }
    }
    return count;
  };
  CHECK(magenta_rows(a_top, a_bottom) > 20);
  CHECK(magenta_rows(a_bottom + 24, std::min(image.height, a_bottom + 24 + (a_bottom - a_top))) > 20);
}

TEST_CASE("snapscope DIR with one malformed rank summary names the file and the problem") {
  // Issue 39 item 4: the viewer said "no snapshot given"; the converter's --ranks names the file.
  const fs::path sandbox = make_sandbox("compare-ranks-malformed");
  const fs::path job = sandbox / "job";
  fs::create_directories(job);
  std::ofstream(job / "r0.rank.json")
      << R"({"format": "snapscope-rank-summary/1", "file": "x", "device": 0, "peak_bytes": -5})";
  const RunResult run = run_app(sandbox, shell_quote(job.string()) + " --screenshot " +
                                             shell_quote((sandbox / "out.png").string()) + " 2>&1");
  CHECK(run.exit_code == 1);
  CHECK(run.out ==
        "snapscope: " + (job / "r0.rank.json").string() + ": \"peak_bytes\" is not a non-negative integer\n");
  CHECK_FALSE(fs::exists(sandbox / "out.png"));
}
