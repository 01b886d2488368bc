// Issue 39's smaller findings: --at past the end is refused everywhere, live totals past 2^63 are
// refused rather than wrapped, out-of-range timestamps never print a negative span, and a symlink
// loop is one line naming the file.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <string>

#include "converter/conversion_summary.h"
#include "core/convert/convert.h"
#include "core/store/elements_db/sqlite_handle.h"
#include "unit/support/cli_runner.h"
#include "unit/support/test_store_fixture.h"

using namespace snapscope;
using snapscope::test::CliResult;
using snapscope::test::run_cli;
using snapscope::test::TempDir;

namespace {

size_t lines(const std::string& text) {
  return static_cast<size_t>(std::count(text.begin(), text.end(), '\n'));
}

}  // namespace

TEST_CASE("cli hostile: --at past the last event is refused by --report and --export of a directory too") {
  TempDir dir;
  test::write_file(dir / "s.pickle", test::pickle_bytes(test::standard_fixture()));
  REQUIRE(run_cli(dir, "s.pickle -o out").exit_code == 0);
  for (const char* args : {"--report out --at 99999999", "--export moment-csv out -o x.csv --at 99999999",
                           "--report s.pickle --at 99999999", "--diff out s.pickle --at 99999999"}) {
    const CliResult result = run_cli(dir, args);
    CHECK_MESSAGE(result.exit_code == 1, args);
    CHECK_MESSAGE(result.err.find("no event 99999999") != std::string::npos, args);
    CHECK_MESSAGE(lines(result.err) == 1, args);
  }
  CHECK(!std::filesystem::exists(dir / "x.csv"));
}

TEST_CASE("cli hostile: five allocations of 2^62 bytes are refused, not reported as a wrapped peak") {
  TempDir dir;
  test::FixtureSnapshot snapshot;
  snapshot.traces.resize(1);
  for (uint64_t i = 0; i < 5; ++i) {
    snapshot.traces[0].push_back(
        {"alloc", 0x1000 * (i + 1), uint64_t{1} << 62, 10 + int64_t(i), {{"f", "f.py", 1}}, "", 0});
  }
  test::write_file(dir / "big.pickle", test::pickle_bytes(snapshot));
  const CliResult result = run_cli(dir, "--report big.pickle");
  CHECK(result.exit_code == 1);
  CHECK(result.err.find("big.pickle") != std::string::npos);
  CHECK(result.err.find("2^63") != std::string::npos);
  CHECK(lines(result.err) == 1);
}

TEST_CASE("cli hostile: a timestamp past 2^63 (read back negative) never prints a negative time span") {
  ConvertSummary summary;
  summary.first_time_us = -9'000'000'000'000'000'000;
  summary.last_time_us = 5;
  const std::string text = format_summary_text(summary);
  CHECK(text.find("time span:     timestamps out of range") != std::string::npos);
  CHECK(text.find("time span:     -") == std::string::npos);
}

TEST_CASE("cli hostile: a symlink loop is one line naming the file") {
  TempDir dir;
  std::filesystem::create_symlink("loop", dir / "loop");
  for (const char* args : {"--report loop", "loop -o out", "--export tree-csv loop -o x.csv"}) {
    const CliResult result = run_cli(dir, args);
    CHECK_MESSAGE(result.exit_code == 1, args);
    CHECK_MESSAGE(result.err.starts_with("snapscope-convert: loop: "), args);
    CHECK_MESSAGE(result.err.find("filesystem error") == std::string::npos, args);
    CHECK_MESSAGE(lines(result.err) == 1, args);
  }
}

TEST_CASE(
    "cli hostile: a crafted events row opens and reports, and the findings that read it stop with one line") {
  // Issue 39 item 9: events rows are checked where they are read (docs/FORMAT.md), not at open.
  TempDir dir;
  test::write_file(dir / "s.pickle", test::pickle_bytes(test::standard_fixture()));
  REQUIRE(run_cli(dir, "s.pickle -o out").exit_code == 0);
  {
    SqliteDatabase db((dir / "out" / "elements.db").string(), SqliteDatabase::Mode::Create);
    db.exec("UPDATE events SET size = -5 WHERE id = (SELECT min(id) FROM events)");
  }
  CHECK(run_cli(dir, "--report out").exit_code == 0);  // the layout file: no events row read
  const CliResult findings = run_cli(dir, "--report out --findings");
  CHECK(findings.exit_code == 1);
  CHECK(findings.err == "snapscope-convert: out/elements.db: events: a negative size\n");
}
