// snapscope-convert --ranks: a directory of per-rank snapshots with one planted outlier rank, in
// JSON and text; the median and deviations; converted directories beside pickles; bad input.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>

#include <nlohmann/json.hpp>

#include "core/compare/rank_table.h"
#include "core/snapshot/snapshot_reader.h"
#include "unit/support/cli_runner.h"

using namespace snapscope;
using snapscope::test::FixtureEvent;
using snapscope::test::FixtureSnapshot;
using snapscope::test::run_cli;
using snapscope::test::TempDir;

namespace {

// One rank: weights 1000 B at shard.py, activations `activation_bytes` at layer.py.
std::string rank_pickle(uint64_t activation_bytes) {
  FixtureSnapshot rank;
  rank.traces = {{
      {"alloc", 0x1000, 1000, 1, {{"shard", "shard.py", 3}, {"main", "m.py", 2}}, "", 0},
      {"alloc", 0x8000, activation_bytes, 2, {{"layer", "layer.py", 9}, {"main", "m.py", 2}}, "", 0},
      {"free_completed", 0x8000, activation_bytes, 3, {{"layer", "layer.py", 9}, {"main", "m.py", 2}}, "", 0},
  }};
  return test::pickle_bytes(rank);
}

}  // namespace

TEST_CASE("rank table: median, deviation and outliers") {
  std::vector<RankSummary> ranks(4);
  const uint64_t peaks[] = {1000, 1100, 3000, 1050};
  for (size_t i = 0; i < ranks.size(); ++i) ranks[i].peak_bytes = peaks[i];
  const RankTable table = build_rank_table(ranks, 10);
  CHECK(table.median_peak == 1050);  // lower median of 1000, 1050, 1100, 3000
  REQUIRE(table.rows.size() == 4);
  CHECK_FALSE(table.rows[0].outlier);
  CHECK(table.rows[2].outlier);
  CHECK(table.rows[2].deviation_percent == doctest::Approx(185.714).epsilon(1e-4));
  CHECK(build_rank_table({}, 10).rows.empty());
}

TEST_CASE("cli --ranks: a directory of ranks with one planted outlier") {
  TempDir dir;
  std::filesystem::create_directories(dir / "job");
  for (int rank = 0; rank < 4; ++rank) {
    const uint64_t activations = rank == 2 ? 9000 : 1000 + 10 * static_cast<uint64_t>(rank);
    test::write_file(dir / ("job/rank" + std::to_string(rank) + ".pickle"), rank_pickle(activations));
  }
  // A rank converted where it ran counts the same as its pickle.
  REQUIRE(run_cli(dir, "job/rank3.pickle -o job/rank3").exit_code == 0);
  std::filesystem::remove(dir / "job/rank3.pickle");

  const auto result = run_cli(dir, "--ranks job --summary json");
  REQUIRE(result.exit_code == 0);
  CHECK(result.err.empty());
  const auto json = nlohmann::json::parse(result.out);
  const auto& ranks = json["ranks"];
  REQUIRE(ranks.size() == 4);
  CHECK(ranks[0]["file"] == "job/rank0.pickle");
  CHECK(ranks[3]["file"] == "job/rank3");
  CHECK(ranks[0]["peak_bytes"] == 2000);
  CHECK(ranks[2]["peak_bytes"] == 10000);
  CHECK(ranks[2]["top_location"] == "layer.py:9 (layer)");
  CHECK(ranks[2]["top_location_bytes"] == 9000);
  CHECK(json["median_peak"] == 2010);
  int outliers = 0;
  for (const auto& rank : ranks) outliers += rank["outlier"].get<bool>();
  CHECK(outliers == 1);
  CHECK(ranks[2]["outlier"] == true);

  const auto text = run_cli(dir, "--ranks job --outlier 500");
  REQUIRE(text.exit_code == 0);
  CHECK(text.out.find("median peak") != std::string::npos);
  CHECK(text.out.find("\n*") == std::string::npos);  // nothing is 500 % away
}

TEST_CASE("cli --ranks: usage exits 2; an empty directory or a bad rank exits 1 naming it") {
  TempDir dir;
  CHECK(run_cli(dir, "--ranks").exit_code == 2);
  std::filesystem::create_directories(dir / "empty");
  const auto empty = run_cli(dir, "--ranks empty");
  CHECK(empty.exit_code == 1);
  CHECK(empty.err == "snapscope-convert: empty: no snapshots (pickles or converted directories) inside\n");
  std::filesystem::create_directories(dir / "job");
  test::write_file(dir / "job/rank0.pickle", rank_pickle(10));
  test::write_file(dir / "job/rank1.pickle", "truncated");
  const auto bad = run_cli(dir, "--ranks job");
  CHECK(bad.exit_code == 1);
  CHECK(bad.out.empty());
  CHECK(bad.err.find("rank1.pickle") != std::string::npos);
  CHECK(std::count(bad.err.begin(), bad.err.end(), '\n') == 1);
}

TEST_CASE("cli --ranks: conversions with --rank-summary leave summaries the rank table reads alone") {
  TempDir dir;
  std::filesystem::create_directories(dir / "job");
  for (int rank = 0; rank < 4; ++rank) {
    const std::string name = "rank" + std::to_string(rank);
    test::write_file(dir / (name + ".pickle"), rank_pickle(rank == 2 ? 9000 : 100));
    const auto converted = run_cli(dir, name + ".pickle -o job/" + name + " --rank-summary");
    REQUIRE(converted.exit_code == 0);
    REQUIRE(std::filesystem::exists(dir / "job" / (name + ".rank.json")));
    // Only the summary is needed: the table must not open the converted data.
    std::filesystem::remove_all(dir / "job" / name);
  }
  const auto result = run_cli(dir, "--ranks job --summary json");
  REQUIRE(result.exit_code == 0);
  const auto json = nlohmann::json::parse(result.out);
  REQUIRE(json["ranks"].size() == 4);
  CHECK(json["ranks"][2]["outlier"] == true);
  CHECK(json["ranks"][2]["peak_bytes"] == 10000);
  CHECK(json["ranks"][0]["top_location"] == "shard.py:3 (shard)");
  CHECK(json["ranks"][0]["top_category"] == "unknown");
  const RankSummary read =
      parse_rank_summary(test::read_file(dir / "job" / "rank2.rank.json"), "rank2.rank.json");
  CHECK(read.total_curve.size() == 4);  // one point per state of a 3-action trace
  CHECK(*std::max_element(read.total_curve.begin(), read.total_curve.end()) == 10000);
}

TEST_CASE("cli --ranks: a hostile rank summary is refused with its name") {
  TempDir dir;
  std::filesystem::create_directories(dir / "job");
  test::write_file(dir / "job" / "r0.rank.json",
                   R"({"format": "snapscope-rank-summary/1", "file": "x", "device": 0, "peak_bytes": -5})");
  const auto result = run_cli(dir, "--ranks job");
  CHECK(result.exit_code == 1);
  CHECK(result.err == "snapscope-convert: job/r0.rank.json: \"peak_bytes\" is not a non-negative integer\n");
  CHECK_THROWS_WITH_AS(parse_rank_summary("[]", "a.rank.json"),
                       "a.rank.json: not a rank summary (not a JSON object)", InputError);
  CHECK_THROWS_WITH_AS(parse_rank_summary(R"({"format": 0})", "a.rank.json"),  // found by fuzz_rank_summary
                       "a.rank.json: not a rank summary (format is not \"snapscope-rank-summary/1\")",
                       InputError);
  CHECK_THROWS_WITH_AS(parse_rank_summary(R"({"format": "other"})", "a.rank.json"),
                       "a.rank.json: not a rank summary (format is not \"snapscope-rank-summary/1\")",
                       InputError);
}
