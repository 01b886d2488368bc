// The analysis pane's Modules tab through the real app: the tree it shows at the cursor is the
// one the command line's --by module computes (core/analysis/module_tree), and on a real GPT
// trace it holds the rows read from its stacks by hand (tests/conformance/test_modules_real.cpp).
#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/analysis/live_elements.h"
#include "core/analysis/module_tree.h"
#include "core/export/export_common.h"
#include "core/export/export_source.h"
#include "gui_harness.h"

using namespace snapscope;
using namespace snapscope::gui_test;
namespace fs = std::filesystem;

namespace {

// What snapscope-convert --report --by module computes for the same state of the same file.
ModuleTree core_module_tree(const std::string& input, size_t state) {
  SourceOptions options;
  options.with_segments = false;
  const AnalysisSource source = load_analysis_source(input, options);
  const ModuleInstances modules = export_module_instances(export_input(source));
  return build_module_tree(live_elements(*source.blocks, state), modules, state);
}

uint64_t top_level_bytes(const nlohmann::json& rows) {
  uint64_t bytes = 0;
  for (const auto& row : rows) bytes += row["depth"] == 0 ? row["bytes"].get<uint64_t>() : 0;
  return bytes;
}

void check_rows_equal(const nlohmann::json& shown, const ModuleTree& core) {
  REQUIRE(shown["rows"].size() == core.rows.size());
  for (size_t i = 0; i < core.rows.size(); ++i) {
    const auto& row = shown["rows"][i];
    CAPTURE(core.rows[i].path);
    CHECK(row["path"] == core.rows[i].path);
    CHECK(row["depth"] == core.rows[i].depth);
    CHECK(row["bytes"] == core.rows[i].bytes);
    CHECK(row["self_bytes"] == core.rows[i].self_bytes);
    CHECK(row["count"] == core.rows[i].count);
  }
}

}  // namespace

TEST_CASE("script: the modules tab shows the core's module tree at the cursor") {
  const fs::path sandbox = make_sandbox("modules-tab");
  const std::string input = fixture_pickle(sandbox).string();
  const fs::path png = sandbox / "modules.png";
  const RunResult run = run_script(sandbox, input,
                                   "cursor peak\ntab modules\nprint-cursor\nprint-modules\ncursor step -3\n"
                                   "print-cursor\nprint-modules\nscreenshot " +
                                       png.string() + "\n");
  REQUIRE(run.exit_code == 0);
  const auto lines = json_lines(run.out);
  REQUIRE(lines.size() == 4);
  for (size_t moment = 0; moment < 2; ++moment) {
    const auto& cursor = lines[2 * moment];
    const auto& modules = lines[2 * moment + 1];
    CAPTURE(moment);
    CHECK(modules["error"] == "");
    REQUIRE(modules.contains("rows"));
    CHECK(modules["state"] == cursor["state"]);
    // The window drew this tree before the print (the tab is shown, scripts settle first).
    CHECK(modules["drawn_state"] == cursor["state"]);
    // The tree's root is the live memory at the cursor, and its top rows add up to it.
    CHECK(modules["live_bytes"] == cursor["allocated"]);
    CHECK(top_level_bytes(modules["rows"]) == cursor["allocated"].get<uint64_t>());
    check_rows_equal(modules, core_module_tree(input, cursor["state"].get<size_t>()));
  }
  // The generated model's calls are there, below the top-level groups.
  bool nested = false;
  for (const auto& row : lines[1]["rows"]) nested = nested || row["depth"].get<int>() > 0;
  CHECK(nested);
  const Image image = load_png(png);
  CHECK(image.width == 1200);
}

TEST_CASE("script: print-modules without a cursor says nothing is shown") {
  const fs::path sandbox = make_sandbox("modules-no-cursor");
  const std::string input = fixture_pickle(sandbox).string();
  const RunResult run = run_script(sandbox, input, "cursor none\ntab modules\nprint-modules\n");
  REQUIRE(run.exit_code == 0);
  const auto lines = json_lines(run.out);
  REQUIRE(lines.size() == 1);
  CHECK_FALSE(lines[0].contains("rows"));
  CHECK(lines[0]["drawn_state"].is_null());
}

TEST_CASE("real snapshots: the modules tab at gpt_train_step_ctx128's peak (SNAPSCOPE_SNAPSHOT_DIR)") {
  const char* directory = std::getenv("SNAPSCOPE_SNAPSHOT_DIR");
  if (directory == nullptr || directory[0] == '\0') return;  // only run when configured
  const fs::path pickle = fs::path(directory) / "gpt_train_step_ctx128.pickle";
  if (!fs::exists(pickle)) return;
  const fs::path sandbox = make_sandbox("modules-gpt");
  const RunResult run = run_script(sandbox, pickle.string(), "cursor peak\ntab modules\nprint-modules\n");
  REQUIRE(run.exit_code == 0);
  const auto lines = json_lines(run.out);
  REQUIRE(lines.size() == 1);
  const auto& rows = lines[0]["rows"];
  REQUIRE(rows.size() >= 3);
  // The golden rows of tests/conformance/test_modules_real.cpp.
  CHECK(rows[0]["label"] == "outside any module");
  CHECK(rows[0]["bytes"] == 27'459'287'044);
  CHECK(rows[1]["label"] == "backward (no forward stack)");
  CHECK(rows[1]["bytes"] == 13'660'792'832);
  CHECK(rows[2]["label"] == "untraced / pre-existing");
  CHECK(rows[2]["bytes"] == 13'628'553'216);
  CHECK(rows.back()["path"] ==
        "forward (transformer.py) <- benchmark.py:229 > forward (transformer.py) <- transformer.py:298");
  CHECK(top_level_bytes(rows) == lines[0]["live_bytes"].get<uint64_t>());
}
