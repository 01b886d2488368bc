// snapscope-convert --diff: a planted regression (a location that grows by a known amount, a new
// one, a vanished one) in text and JSON, self-diff zero, the CI gate's exit codes, bad input.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>

#include <nlohmann/json.hpp>

#include "core/compare/moment_diff.h"
#include "unit/support/cli_runner.h"
#include "unit/support/generated_snapshot.h"

using namespace snapscope;
using snapscope::test::FixtureEvent;
using snapscope::test::FixtureSnapshot;
using snapscope::test::run_cli;
using snapscope::test::TempDir;

namespace {

FixtureEvent alloc(uint64_t addr, uint64_t size, const std::string& site, int64_t time_us) {
  return {"alloc", addr, size, time_us, {{site, site + ".py", 1}, {"main", "m.py", 2}}, "", 0};
}

// Before: grow 100 B, gone 50 B, same 30 B. After: grow 400 B, new 70 B, same 30 B (all live at
// the end, so the peaks are 180 B and 500 B).
void write_pair(const TempDir& dir) {
  FixtureSnapshot before, after;
  before.traces = {
      {alloc(0x1000, 100, "grow", 1), alloc(0x2000, 50, "gone", 2), alloc(0x3000, 30, "same", 3)}};
  after.traces = {{alloc(0x1000, 400, "grow", 1), alloc(0x2000, 70, "new", 2), alloc(0x3000, 30, "same", 3)}};
  test::write_file(dir / "a.pickle", test::pickle_bytes(before));
  test::write_file(dir / "b.pickle", test::pickle_bytes(after));
}

}  // namespace

TEST_CASE("diff: rows joined by location, sorted by |delta|, deltas summing to the live delta") {
  MomentTable a, b;
  a.live_bytes = 180;
  a.rows = {{1, "grow", 100, 100, 100, 1, false, ""},
            {2, "gone", 50, 150, 50, 1, false, ""},
            {3, "same", 30, 180, 30, 1, false, ""}};
  b.live_bytes = 500;
  b.rows = {{7, "grow", 400, 400, 400, 2, false, ""},
            {8, "new", 70, 470, 70, 1, false, ""},
            {9, "same", 30, 500, 30, 1, false, ""}};
  const MomentDiff diff = diff_moments(a, b);
  REQUIRE(diff.rows.size() == 4);
  CHECK(diff.rows[0].location == "grow");
  CHECK(diff.rows[0].delta() == 300);
  CHECK(diff.rows[0].count_b == 2);
  CHECK(diff.rows[1].location == "new");
  CHECK(diff.rows[1].status == DiffStatus::New);
  CHECK(diff.rows[2].location == "gone");
  CHECK(diff.rows[2].status == DiffStatus::Vanished);
  CHECK(diff.rows[2].delta() == -50);
  CHECK(diff.rows[3].delta() == 0);
  int64_t sum = 0;
  for (const DiffRow& row : diff.rows) sum += row.delta();
  CHECK(sum == diff.delta());
  CHECK(growth_percent(180, 500) == doctest::Approx(177.777).epsilon(1e-4));
  CHECK(growth_percent(0, 0) == 0);
  // The folded row keeps the delta column adding up.
  const std::string text = moment_diff_text(diff, 2);
  CHECK(text.find("(2 more locations)") != std::string::npos);
  CHECK(text.find("[new]") != std::string::npos);
}

TEST_CASE("cli --diff: the planted regression, exactly, in JSON and text") {
  TempDir dir;
  write_pair(dir);
  const auto result = run_cli(dir, "--diff a.pickle b.pickle --summary json");
  REQUIRE(result.exit_code == 0);
  CHECK(result.err.empty());
  const auto json = nlohmann::json::parse(result.out);
  CHECK(json["peak_a"] == 180);
  CHECK(json["peak_b"] == 500);
  CHECK(json["peak_delta"] == 320);
  const auto& rows = json["rows"];
  REQUIRE(rows.size() == 4);
  CHECK(rows[0]["location"] == "grow.py:1 (grow)");
  CHECK(rows[0]["bytes_a"] == 100);
  CHECK(rows[0]["bytes_b"] == 400);
  CHECK(rows[0]["delta"] == 300);
  CHECK(rows[1]["location"] == "new.py:1 (new)");
  CHECK(rows[1]["status"] == "new");
  CHECK(rows[2]["location"] == "gone.py:1 (gone)");
  CHECK(rows[2]["status"] == "vanished");
  CHECK(rows[2]["delta"] == -50);
  CHECK(rows[3]["delta"] == 0);
  // By category: forward allocations alive at the end, with no backward after them, are unknown.
  const auto& categories = json["category_rows"];
  REQUIRE(categories.size() == 1);
  CHECK(categories[0]["category"] == "unknown");
  CHECK(categories[0]["delta"] == 320);
  // By call path: main calls all four sites; the unchanged one is below the 1 % threshold.
  const auto& tree = json["tree_rows"];
  REQUIRE(tree.size() == 5);
  CHECK(tree[0]["path"] == "all live memory");
  CHECK(tree[0]["delta"] == 320);
  CHECK(tree[1]["path"] == "m.py:2 (main)");
  CHECK(tree[1]["depth"] == 1);
  CHECK(tree[2]["path"] == "m.py:2 (main) > grow.py:1 (grow)");
  CHECK(tree[2]["bytes_a"] == 100);
  CHECK(tree[2]["bytes_b"] == 400);
  CHECK(tree[3]["path"] == "m.py:2 (main) > new.py:1 (new)");
  CHECK(tree[3]["status"] == "new");
  CHECK(tree[4]["path"] == "m.py:2 (main) > gone.py:1 (gone)");
  CHECK(tree[4]["delta"] == -50);

  const auto text = run_cli(dir, "--diff a.pickle b.pickle");
  REQUIRE(text.exit_code == 0);
  CHECK(text.out.find("peak delta:     +320 B (+177.78 %)") != std::string::npos);
  CHECK(text.out.find("[vanished]") != std::string::npos);
  CHECK(text.out.find("      +300 B       100 B       400 B      grow.py:1 (grow)\n") != std::string::npos);
}

TEST_CASE("cli --diff: --summary csv holds the location and category rows, exactly") {
  TempDir dir;
  write_pair(dir);
  const auto result = run_cli(dir, "--diff a.pickle b.pickle --summary csv");
  REQUIRE(result.exit_code == 0);
  CHECK(result.out ==
        "grouping,label,bytes_a,bytes_b,delta,count_a,count_b,status\n"
        "location,grow.py:1 (grow),100,400,300,1,1,both\n"
        "location,new.py:1 (new),0,70,70,0,1,new\n"
        "location,gone.py:1 (gone),50,0,-50,1,0,vanished\n"
        "location,same.py:1 (same),30,30,0,1,1,both\n"
        "category,unknown,180,500,320,3,3,both\n");
}

TEST_CASE("cli --diff: --at step:N needs repeated annotations, and names the file when there are none") {
  TempDir dir;
  write_pair(dir);
  const auto result = run_cli(dir, "--diff a.pickle b.pickle --at step:0");
  CHECK(result.exit_code == 1);
  CHECK(result.err ==
        "snapscope-convert: a.pickle: no repeated annotation (ProfilerStep#k, Optimizer.step...) to count "
        "steps by\n");
  CHECK(result.out.empty());
}

TEST_CASE("cli --diff: a snapshot against itself is zero everywhere") {
  TempDir dir;
  write_pair(dir);
  REQUIRE(run_cli(dir, "b.pickle -o b").exit_code == 0);
  const auto result = run_cli(dir, "--diff b.pickle b --summary json");  // pickle vs its conversion
  REQUIRE(result.exit_code == 0);
  const auto json = nlohmann::json::parse(result.out);
  CHECK(json["peak_delta"] == 0);
  CHECK(json["live_delta"] == 0);
  for (const auto& row : json["rows"]) CHECK(row["delta"] == 0);
  for (const auto& row : json["category_rows"]) CHECK(row["delta"] == 0);
  REQUIRE(json["tree_rows"].size() == 1);  // nothing changed: only the root
  CHECK(json["tree_rows"][0]["delta"] == 0);
}

TEST_CASE("cli --diff: the gate exits 3 past the allowed growth, 0 within it") {
  TempDir dir;
  write_pair(dir);
  CHECK(run_cli(dir, "--diff a.pickle b.pickle --fail-if-peak-grows 200").exit_code == 0);
  const auto tripped = run_cli(dir, "--diff a.pickle b.pickle --fail-if-peak-grows 10");
  CHECK(tripped.exit_code == 3);
  CHECK(tripped.err == "snapscope-convert: b.pickle: peak grew +177.78 % over a.pickle (limit +10.00 %)\n");
  CHECK(run_cli(dir, "--diff b.pickle a.pickle --fail-if-peak-grows 0").exit_code == 0);  // it shrank
}

TEST_CASE("cli --diff: usage errors exit 2, bad input exits 1 with one line naming the file") {
  TempDir dir;
  write_pair(dir);
  CHECK(run_cli(dir, "--diff a.pickle").exit_code == 2);
  CHECK(run_cli(dir, "--diff a.pickle b.pickle --fail-if-peak-grows x").exit_code == 2);
  CHECK(run_cli(dir, "--diff a.pickle b.pickle --summary yaml").exit_code == 2);
  test::write_file(dir / "bad.pickle", "not a pickle");
  const auto bad = run_cli(dir, "--diff a.pickle bad.pickle");
  CHECK(bad.exit_code == 1);
  CHECK(bad.out.empty());
  CHECK(bad.err.find("bad.pickle") != std::string::npos);
  CHECK(std::count(bad.err.begin(), bad.err.end(), '\n') == 1);
}

TEST_CASE("cli --diff: reserved bytes and fragmentation at the compared moments") {
  TempDir dir;
  gen::GenOptions options;  // a generated training loop with its allocator's segments
  options.events = 2000;
  test::write_generated(dir / "s.pickle", options);
  const auto result = run_cli(dir, "--diff s.pickle s.pickle --summary json");
  REQUIRE(result.exit_code == 0);
  const auto json = nlohmann::json::parse(result.out);
  for (const char* side : {"a", "b"}) {
    const auto& figures = json[side];
    const uint64_t live = figures["live_bytes"], reserved = figures["reserved_bytes"];
    REQUIRE(reserved >= live);
    REQUIRE(reserved > 0);
    CHECK(figures["fragmentation"].get<double>() ==
          doctest::Approx(1.0 - static_cast<double>(live) / static_cast<double>(reserved)));
  }
  // Without segment information there is no fragmentation to report.
  write_pair(dir);
  const auto bare = nlohmann::json::parse(run_cli(dir, "--diff a.pickle b.pickle --summary json").out);
  CHECK(bare["a"]["fragmentation"].is_null());
}

TEST_CASE("cli --diff: --top bounds every section, the call paths included") {
  TempDir dir;
  write_pair(dir);
  const auto all = run_cli(dir, "--diff a.pickle b.pickle --top 0");
  REQUIRE(all.exit_code == 0);
  CHECK(all.out.find("more call paths") == std::string::npos);
  CHECK(all.out.find("m.py:2 (main)\n") != std::string::npos);
  const auto two = run_cli(dir, "--diff a.pickle b.pickle --top 2");
  REQUIRE(two.exit_code == 0);
  // The call-path section: the root and main, then the three changed sites folded into a line.
  const size_t section = two.out.find("by call path");
  REQUIRE(section != std::string::npos);
  const std::string paths = two.out.substr(section);
  CHECK(paths.find("(3 more call paths; --top 0 shows all)") != std::string::npos);
  CHECK(paths.find("grow.py:1 (grow)") == std::string::npos);
}
