// Rank summaries as hostile input (issue 39 item 4): `file` resolves beside the summary only, a
// summary stale against its reconverted directory is rebuilt, --device is honoured, and a failed
// --rank-summary leaves nothing.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

#include "core/document/rank_set.h"
#include "core/snapshot/snapshot_reader.h"
#include "unit/support/cli_runner.h"

using namespace snapscope;
using snapscope::test::CliResult;
using snapscope::test::run_cli;
using snapscope::test::TempDir;

namespace {

std::string summary_naming(const std::string& file) {
  return R"({"format": "snapscope-rank-summary/1", "file": )" + nlohmann::json(file).dump() +
         R"(, "device": 0, "peak_bytes": 5, "peak_event": 1, "reserved_peak": 0, "phase_at_peak": "",
            "top_location": "", "top_location_bytes": 0, "top_category": "", "top_category_bytes": 0,
            "total_curve": [], "reserved_curve": []})";
}

std::string one_alloc_pickle(uint64_t bytes) {
  test::FixtureSnapshot rank;
  rank.traces = {{{"alloc", 0x1000, bytes, 1, {{"f", "f.py", 3}}, "", 0}}};
  return test::pickle_bytes(rank);
}

uint64_t first_peak(const CliResult& result) {
  return nlohmann::json::parse(result.out)["ranks"][0]["peak_bytes"].get<uint64_t>();
}

}  // namespace

TEST_CASE(
    "rank summary: file resolves beside the summary; absolute paths, subdirectories and .. are refused") {
  TempDir dir;
  std::filesystem::create_directories(dir / "job");
  test::write_file(dir / "job" / "r0.rank.json", summary_naming("r0"));
  CHECK(read_rank_summary_file((dir / "job" / "r0.rank.json").string()).file ==
        (dir / "job" / "r0").string());
  for (const char* file : {"/etc/shadow", "../r0", "..", "sub/r0", ""}) {
    test::write_file(dir / "job" / "bad.rank.json", summary_naming(file));
    CHECK_THROWS_WITH_AS(read_rank_summary_file((dir / "job" / "bad.rank.json").string()),
                         ((dir / "job" / "bad.rank.json").string() +
                          ": \"file\" is not the name of a snapshot beside the summary")
                             .c_str(),
                         InputError);
  }
}

TEST_CASE("rank summary: a --force reconversion without --rank-summary does not leave a stale peak") {
  TempDir dir;
  test::write_file(dir / "small.pickle", one_alloc_pickle(100));
  test::write_file(dir / "big.pickle", one_alloc_pickle(7000));
  std::filesystem::create_directories(dir / "job");
  REQUIRE(run_cli(dir, "small.pickle -o job/r0 --rank-summary").exit_code == 0);
  REQUIRE(first_peak(run_cli(dir, "--ranks job --summary json")) == 100);
  REQUIRE(run_cli(dir, "big.pickle -o job/r0 --force").exit_code == 0);
  CHECK(first_peak(run_cli(dir, "--ranks job --summary json")) == 7000);
}

TEST_CASE("rank summary: --ranks --device is honoured, or refused when only the summary is there") {
  TempDir dir;
  test::write_file(dir / "s.pickle", test::pickle_bytes(test::standard_fixture()));
  std::filesystem::create_directories(dir / "job");
  REQUIRE(run_cli(dir, "s.pickle -o job/r0 --rank-summary").exit_code == 0);
  const CliResult device1 = run_cli(dir, "--ranks job --device 1 --summary json");
  REQUIRE(device1.exit_code == 0);
  CHECK(nlohmann::json::parse(device1.out)["ranks"][0]["device"] == 1);
  CHECK(first_peak(device1) == 64);
  std::filesystem::remove_all(dir / "job" / "r0");
  const CliResult alone = run_cli(dir, "--ranks job --device 1");
  CHECK(alone.exit_code == 1);
  CHECK(alone.err ==
        "snapscope-convert: job/r0.rank.json: summarises device 0, not device 1 (and its "
        "converted directory is not beside it)\n");
}

TEST_CASE("rank summary: a --rank-summary that cannot be written leaves no conversion and one line") {
  TempDir dir;
  test::write_file(dir / "s.pickle", one_alloc_pickle(100));
  std::filesystem::create_directories(dir / "job" / "r0.rank.json");  // in the way
  const CliResult result = run_cli(dir, "s.pickle -o job/r0 --rank-summary");
  CHECK(result.exit_code == 1);
  CHECK(result.err == "snapscope-convert: job/r0.rank.json: is a directory\n");
  CHECK(test::TempDir::entries_of(dir / "job") == std::vector<std::string>{"r0.rank.json"});
}
