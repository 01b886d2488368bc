// A FIFO, device or other non-regular input is refused at once with one line naming it; nothing
// blocks in open(2) (each run is under `timeout`, so a hang fails instead of stalling the suite).
#include <doctest/doctest.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "unit/support/test_store_fixture.h"

using namespace snapscope;
using snapscope::test::TempDir;

namespace {

struct Run {
  int exit_code = -1;
  std::string err;
};

Run run_bounded(const TempDir& dir, const std::string& args) {
  const std::string command = "cd '" + dir.path().string() +
                              "' && timeout 20 '" SNAPSCOPE_BIN_DIR "/snapscope-convert' " + args +
                              " >/dev/null 2>.stderr </dev/null";
  const int status = std::system(command.c_str());
  Run run{WIFEXITED(status) ? WEXITSTATUS(status) : -1, test::read_file(dir / ".stderr")};
  std::filesystem::remove(dir / ".stderr");
  return run;
}

}  // namespace

TEST_CASE(
    "cli special inputs: a FIFO given to conversion, --report, --diff, --export or --ranks is refused") {
  TempDir dir;
  test::write_file(dir / "s.pickle", test::pickle_bytes(test::standard_fixture()));
  REQUIRE(::mkfifo((dir / "fifo").c_str(), 0600) == 0);
  for (const char* args : {"fifo -o out", "--report fifo", "--diff fifo s.pickle", "--diff s.pickle fifo",
                           "--export moment-csv fifo -o x.csv", "--report s.pickle --rules fifo"}) {
    const Run run = run_bounded(dir, args);
    CHECK_MESSAGE(run.exit_code == 1, args);
    CHECK_MESSAGE(run.err.find("fifo") != std::string::npos, args);
    CHECK_MESSAGE(run.err.find("not a regular file (a FIFO)") != std::string::npos, args);
    CHECK_MESSAGE(std::count(run.err.begin(), run.err.end(), '\n') == 1, args);
  }
  CHECK(dir.entries() == std::vector<std::string>{"fifo", "s.pickle"});
}

TEST_CASE("cli special inputs: a FIFO planted in a converted directory or as a rank summary is refused") {
  TempDir dir;
  test::write_file(dir / "s.pickle", test::pickle_bytes(test::standard_fixture()));
  REQUIRE(run_bounded(dir, "s.pickle -o out").exit_code == 0);
  std::filesystem::remove(dir / "out" / "elements.db");
  REQUIRE(::mkfifo((dir / "out" / "elements.db").c_str(), 0600) == 0);
  const Run report = run_bounded(dir, "--report out");
  CHECK(report.exit_code == 1);
  CHECK(report.err.find("elements.db: not a regular file (a FIFO)") != std::string::npos);

  std::filesystem::create_directory(dir / "job");
  REQUIRE(::mkfifo((dir / "job" / "r0.rank.json").c_str(), 0600) == 0);
  const Run ranks = run_bounded(dir, "--ranks job");
  CHECK(ranks.exit_code == 1);
  CHECK(ranks.err.find("r0.rank.json") != std::string::npos);
}
