// Names from the input are escaped in every text output: a NUL in a frame's filename must not end
// --report, --diff or --ranks early, and ESC must not reach the terminal.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <string>

#include "unit/support/cli_runner.h"
#include "unit/support/test_store_fixture.h"

using namespace snapscope;
using snapscope::test::CliResult;
using snapscope::test::run_cli;
using snapscope::test::TempDir;

namespace {

const std::string kHostileFile = std::string("b\0\x1b[2J\r.py", 10);

void write_hostile_fixture(const TempDir& dir, const std::string& name) {
  test::FixtureSnapshot snapshot = test::standard_fixture();
  for (auto& event : snapshot.traces[0]) {
    for (auto& frame : event.frames) {
      if (frame.filename == "b.py") frame.filename = kHostileFile;
    }
  }
  test::write_file(dir / name, test::pickle_bytes(snapshot));
}

bool clean(const std::string& text) {
  return std::none_of(text.begin(), text.end(), [](char c) { return c == '\0' || c == '\x1b' || c == '\r'; });
}

}  // namespace

TEST_CASE("cli escaping: --report, --diff, --ranks and CSV exports show a NUL, ESC and CR as escapes") {
  TempDir dir;
  write_hostile_fixture(dir, "s.pickle");
  const CliResult report = run_cli(dir, "--report s.pickle --at 5");
  REQUIRE(report.exit_code == 0);
  CHECK(clean(report.out));
  CHECK(report.out.find("b\\0\\e[2J\\r.py:21") != std::string::npos);

  const CliResult diff = run_cli(dir, "--diff s.pickle s.pickle --at 5");
  REQUIRE(diff.exit_code == 0);
  CHECK(clean(diff.out));
  CHECK(diff.out.find("b\\0\\e[2J\\r.py:21") != std::string::npos);

  std::filesystem::create_directories(dir / "job");
  REQUIRE(run_cli(dir, "s.pickle -o job/r0 --rank-summary").exit_code == 0);
  const CliResult ranks = run_cli(dir, "--ranks job");
  REQUIRE(ranks.exit_code == 0);
  CHECK(clean(ranks.out));

  const CliResult csv = run_cli(dir, "--export moment-csv s.pickle -o - --at 5");
  REQUIRE(csv.exit_code == 0);
  CHECK(clean(csv.out));
  CHECK(csv.out.find("b\\0\\e[2J\\r.py:21") != std::string::npos);
}

TEST_CASE("cli escaping: an error line names a hostile file with escapes, on one line") {
  TempDir dir;
  const CliResult result = run_cli(dir, "--report \"$(printf 'bad\\033[31m\\nname.pickle')\"");
  CHECK(result.exit_code == 1);
  CHECK(clean(result.err));
  CHECK(std::count(result.err.begin(), result.err.end(), '\n') == 1);
}
