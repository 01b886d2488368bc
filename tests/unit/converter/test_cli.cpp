// snapscope-convert as a process: exit codes, one-line errors, no partial output, the JSON
// summary, --force, --device, --bench-queries and --export.
#include <doctest/doctest.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <algorithm>
#include <cstdlib>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/analysis/trace_overflow.h"
#include "core/snapshot/snapshot_reader.h"
#include "core/timeline/timeline.h"
#include "unit/support/cli_runner.h"
#include "unit/support/test_store_fixture.h"

using namespace snapscope;
using snapscope::test::TempDir;

namespace {

using test::CliResult;
using test::run_cli;

size_t line_count(const std::string& text) {
  return static_cast<size_t>(std::count(text.begin(), text.end(), '\n'));
}

void write_fixture(const TempDir& dir) {
  test::write_file(dir / "s.pickle", test::pickle_bytes(test::standard_fixture()));
}

}  // namespace

TEST_CASE("cli: converts, exit 0, text summary on stdout, nothing on stderr when not a TTY") {
  TempDir dir;
  write_fixture(dir);
  const CliResult result = run_cli(dir, "s.pickle -o out");
  CHECK(result.exit_code == 0);
  CHECK(result.err.empty());
  CHECK(result.out.find("peak:") != std::string::npos);
  CHECK(result.out.find("1000 B (1,000 B) at event 5") != std::string::npos);
  CHECK(dir.entries() == std::vector<std::string>{"out", "s.pickle"});
}

TEST_CASE("cli: --timings lists the steps on stderr, the summary stays on stdout") {
  TempDir dir;
  write_fixture(dir);
  const CliResult result = run_cli(dir, "s.pickle -o out --timings");
  REQUIRE(result.exit_code == 0);
  CHECK(result.out.find("peak:") != std::string::npos);
  for (const char* step : {"read pickle", "derive replay inputs", "build timelines",
                           "write allocations.json.zst", "db: events", "db: indexes, analyze"}) {
    CHECK_MESSAGE(result.err.find(step) != std::string::npos, step);
  }
  CHECK(result.err.find("peak RSS") != std::string::npos);
}

TEST_CASE("cli: --summary json agrees with Timeline") {
  TempDir dir;
  write_fixture(dir);
  const CliResult result = run_cli(dir, "s.pickle -o out --summary json");
  REQUIRE(result.exit_code == 0);
  const nlohmann::json summary = nlohmann::json::parse(result.out);
  const Snapshot snapshot = read_snapshot((dir / "s.pickle").string());
  REQUIRE(summary["devices"].size() == 2);
  for (const nlohmann::json& device : summary["devices"]) {
    const Timeline blocks(derive_replay_input(snapshot, device["device"].get<int>(), TimelineKind::Blocks));
    CHECK(device["allocations"] == blocks.element_count());
    CHECK(device["peak_bytes"] == blocks.peak_bytes());
    CHECK(device["peak_event"] == blocks.action_event(blocks.peak_action()));
    CHECK(device["final_bytes"] == blocks.total_at_state(blocks.action_count()));
    CHECK(device["events"] == snapshot.device_traces[device["device"].get<size_t>()].events.size());
  }
  CHECK(summary["devices"][0]["pre_existing"] == 2);
  CHECK(summary["time_span_us"] == 100);
}

TEST_CASE("cli: bad input exits 1 with one line naming the file, and leaves nothing") {
  TempDir dir;
  const std::string good = test::pickle_bytes(test::standard_fixture());
  test::write_file(dir / "truncated.pickle", good.substr(0, good.size() - 10));
  test::write_file(dir / "notes.txt", "not a pickle at all\n");
  test::write_file(dir / "evil.pickle", std::string("\x80\x02"
                                                    "cos\nsystem\n"
                                                    "(S'true'\ntR.",
                                                    26));
  for (const char* name : {"truncated.pickle", "notes.txt", "evil.pickle", "missing.pickle"}) {
    CAPTURE(name);
    const CliResult result = run_cli(dir, std::string(name) + " -o out");
    CHECK(result.exit_code == 1);
    CHECK(result.out.empty());
    CHECK(result.err.starts_with("snapscope-convert: " + std::string(name) + ": "));
    CHECK(line_count(result.err) == 1);
  }
  CHECK(dir.entries() == std::vector<std::string>{"evil.pickle", "notes.txt", "truncated.pickle"});
}

TEST_CASE("cli: a text file renamed .pickle is 'not a pickle file'; real corruption keeps its offset") {
  TempDir dir;
  test::write_file(dir / "notes.pickle", "# training notes\nlr = 3e-4\n");
  const CliResult text = run_cli(dir, "notes.pickle -o out");
  CHECK(text.exit_code == 1);
  CHECK(text.err ==
        "snapscope-convert: notes.pickle: not a pickle file (it starts with byte 0x23 '#', which no "
        "pickle starts with)\n");
  const std::string good = test::pickle_bytes(test::standard_fixture());
  test::write_file(dir / "corrupt.pickle", good.substr(0, good.size() - 1) + "\xff");  // STOP -> junk
  const CliResult corrupt = run_cli(dir, "corrupt.pickle -o out");
  CHECK(corrupt.exit_code == 1);
  CHECK(corrupt.err.find(" at byte ") != std::string::npos);
  CHECK(corrupt.err.find("not a pickle file") == std::string::npos);
}

TEST_CASE("cli: input that breaks off after the first streamed batches: exit 1, one line, nothing left") {
  // More events than one pool chunk, so the database thread has rows when reading fails.
  test::FixtureSnapshot many;
  many.traces.resize(1);
  for (uint64_t i = 0; i < 70'000; ++i) {
    many.traces[0].push_back({i % 2 == 0 ? "alloc" : "free_completed",
                              0x10000 + i / 2 * 256,
                              256,
                              static_cast<int64_t>(i),
                              {},
                              "",
                              0});
  }
  TempDir dir;
  const std::string good = test::pickle_bytes(many);
  test::write_file(dir / "cut.pickle", good.substr(0, good.size() * 95 / 100));
  for (const char* args : {"cut.pickle -o out", "cut.pickle -o out --device 0 --timings"}) {
    CAPTURE(args);
    const CliResult result = run_cli(dir, args);
    CHECK(result.exit_code == 1);
    CHECK(result.out.empty());
    CHECK(result.err.starts_with("snapscope-convert: cut.pickle: "));
    CHECK(line_count(result.err) == 1);
    CHECK(dir.entries() == std::vector<std::string>{"cut.pickle"});
  }
}

TEST_CASE("cli: usage errors exit 2 and print the usage") {
  TempDir dir;
  write_fixture(dir);
  for (const char* args :
       {"", "s.pickle", "s.pickle -o", "s.pickle -o out --frobnicate", "s.pickle -o out --device x",
        "s.pickle -o out --summary xml", "a.pickle b.pickle -o out"}) {
    CAPTURE(args);
    const CliResult result = run_cli(dir, args);
    CHECK(result.exit_code == 2);
    CHECK(result.err.starts_with("snapscope-convert: "));
    CHECK(result.err.find("usage: snapscope-convert") != std::string::npos);
  }
  CHECK(dir.entries() == std::vector<std::string>{"s.pickle"});
  CHECK(run_cli(dir, "--help").exit_code == 0);
}

TEST_CASE("cli: an existing OUTDIR needs --force") {
  TempDir dir;
  write_fixture(dir);
  REQUIRE(run_cli(dir, "s.pickle -o out").exit_code == 0);
  const CliResult again = run_cli(dir, "s.pickle -o out");
  CHECK(again.exit_code == 1);
  CHECK(again.err == "snapscope-convert: out: already exists (use --force to replace it)\n");
  const CliResult forced = run_cli(dir, "s.pickle -o out --force --device 1 --summary json");
  CHECK(forced.exit_code == 0);
  CHECK(nlohmann::json::parse(forced.out)["devices"].size() == 1);
  CHECK(dir.entries() == std::vector<std::string>{"out", "s.pickle"});
}

TEST_CASE("cli: --device of a device not in the snapshot exits 1") {
  TempDir dir;
  write_fixture(dir);
  const CliResult result = run_cli(dir, "s.pickle -o out --device 3");
  CHECK(result.exit_code == 1);
  CHECK(result.err == "snapscope-convert: s.pickle: device 3 is not in the snapshot\n");
  CHECK(dir.entries() == std::vector<std::string>{"s.pickle"});
}

TEST_CASE("cli: --bench-queries reports latencies for a directory and for a pickle") {
  TempDir dir;
  write_fixture(dir);
  REQUIRE(run_cli(dir, "s.pickle -o out").exit_code == 0);
  for (const char* source : {"out", "s.pickle"}) {
    CAPTURE(source);
    const CliResult result = run_cli(dir, std::string("--bench-queries ") + source + " --queries 50");
    CHECK(result.exit_code == 0);
    CHECK(result.out.find("live_at        n=50  median") != std::string::npos);
    CHECK(result.out.find("allocation_at  n=50  median") != std::string::npos);
    CHECK(result.out.find("device 0: 5 elements") != std::string::npos);
  }
  CHECK(run_cli(dir, "--bench-queries nothing-here").exit_code == 1);
}

TEST_CASE("cli: --export writes the file from a pickle and from a converted directory") {
  TempDir dir;
  write_fixture(dir);
  REQUIRE(run_cli(dir, "s.pickle -o out").exit_code == 0);
  const CliResult from_pickle = run_cli(dir, "--export moment-csv s.pickle -o pickle.csv --at 5");
  CHECK(from_pickle.exit_code == 0);
  CHECK(from_pickle.out.empty());
  CHECK(from_pickle.err.empty());
  const CliResult from_dir = run_cli(dir, "--export moment-csv out -o dir.csv --at 5");
  CHECK(from_dir.exit_code == 0);
  const std::string csv = test::read_file(dir / "pickle.csv");
  CHECK(csv == test::read_file(dir / "dir.csv"));
  // After event 5 on device 0: B and C, both allocated at b.py:21 (median of 200 and 300), and the
  // fixture's 500 B ghost allocation (g.py:7).
  CHECK(csv ==
        "bytes,cumulative_bytes,median_size,count,location\n500,500,250,2,b.py:21 (alloc_b)\n"
        "500,1000,500,1,g.py:7 (ghost_alloc)\n");
  const CliResult speedscope = run_cli(dir, "--export speedscope s.pickle -o live.json --device 1 --at 0");
  CHECK(speedscope.exit_code == 0);
  const auto profile = nlohmann::json::parse(test::read_file(dir / "live.json"))["profiles"][0];
  CHECK(profile["weights"] == nlohmann::json::array({64}));
}

TEST_CASE("cli: --export never replaces a device, FIFO or link; keeps permissions; - is stdout") {
  TempDir dir;
  write_fixture(dir);
  REQUIRE(run_cli(dir, "s.pickle -o out").exit_code == 0);
  const CliResult to_stdout = run_cli(dir, "--export moment-csv out -o - --at 5");
  CHECK(to_stdout.exit_code == 0);
  CHECK(to_stdout.out.starts_with("bytes,cumulative_bytes,"));
  CHECK(run_cli(dir, "--export moment-csv out -o /dev/stdout --at 5").out == to_stdout.out);
  if (::mknod((dir / "n").c_str(), S_IFCHR | 0666, makedev(1, 3)) == 0) {  // root only
    CHECK(run_cli(dir, "--export moment-csv out -o n --at 5").exit_code == 0);
    struct stat status {};
    CHECK((::lstat((dir / "n").c_str(), &status) == 0 && S_ISCHR(status.st_mode)));
    std::filesystem::remove(dir / "n");
  }
  test::write_file(dir / "kept.csv", "old");
  ::chmod((dir / "kept.csv").c_str(), 0600);
  std::filesystem::create_symlink("kept.csv", dir / "link.csv");
  CHECK(run_cli(dir, "--export moment-csv out -o link.csv --at 5").exit_code == 0);
  CHECK(std::filesystem::is_symlink(dir / "link.csv"));
  CHECK(test::read_file(dir / "kept.csv") == to_stdout.out);
  const auto owner_rw = std::filesystem::perms::owner_read | std::filesystem::perms::owner_write;
  CHECK(std::filesystem::status(dir / "kept.csv").permissions() == owner_rw);
  // Two exports to one -o at once: both succeed, one whole file is left and no temporary.
  const std::string export_t =
      "'" SNAPSCOPE_BIN_DIR "/snapscope-convert' --export timeline-json out -o t.json";
  const std::string both = "cd '" + dir.path().string() + "' && { " + export_t + " 2>e1 & " + export_t +
                           " 2>e2; s=$?; wait $!; t=$?; [ $s -eq 0 ] && [ $t -eq 0 ]; }";
  CHECK(std::system(both.c_str()) == 0);
  CHECK(test::read_file(dir / "e1").empty());
  CHECK(test::read_file(dir / "e2").empty());
  std::filesystem::remove(dir / "e1");
  std::filesystem::remove(dir / "e2");
  CHECK(!nlohmann::json::parse(test::read_file(dir / "t.json")).empty());
  CHECK(dir.entries() == std::vector<std::string>{"kept.csv", "link.csv", "out", "s.pickle", "t.json"});
}

TEST_CASE("cli: --export errors: usage exits 2, bad input exits 1 with one line, nothing is written") {
  TempDir dir;
  write_fixture(dir);
  for (const char* args : {"--export", "--export flamegraph s.pickle -o x", "--export speedscope s.pickle",
                           "--export speedscope -o x", "--export speedscope s.pickle -o x --at soon",
                           "--export speedscope-allocated s.pickle -o x --range 9:3"}) {
    CAPTURE(args);
    const CliResult result = run_cli(dir, args);
    CHECK(result.exit_code == 2);
    CHECK(result.err.starts_with("snapscope-convert: "));
    CHECK(result.err.find("usage: snapscope-convert --export") != std::string::npos);
  }
  const CliResult no_event = run_cli(dir, "--export tree-csv s.pickle -o x.csv --at 99");
  CHECK(no_event.exit_code == 1);
  CHECK(no_event.err == "snapscope-convert: s.pickle: no event 99 on device 0 (it has 7)\n");
  const CliResult no_device = run_cli(dir, "--export tree-csv s.pickle -o x.csv --device 4");
  CHECK(no_device.exit_code == 1);
  CHECK(no_device.err == "snapscope-convert: s.pickle: no device 4\n");
  const CliResult missing = run_cli(dir, "--export tree-csv gone.pickle -o x.csv");
  CHECK(missing.exit_code == 1);
  CHECK(missing.err.starts_with("snapscope-convert: gone.pickle: "));
  CHECK(line_count(missing.err) == 1);
  const CliResult unwritable = run_cli(dir, "--export tree-csv s.pickle -o no/such/dir/x.csv");
  CHECK(unwritable.exit_code == 1);
  CHECK(unwritable.err.starts_with("snapscope-convert: no/such/dir/x.csv"));
  CHECK(dir.entries() == std::vector<std::string>{"s.pickle"});
  CHECK(run_cli(dir, "--export --help").exit_code == 0);
}

TEST_CASE("cli: an overflowed allocator trace is a warning in both summaries") {
  TempDir dir;
  test::FixtureSnapshot snapshot = test::standard_fixture();
  snapshot.trace_overflowed = true;
  test::write_file(dir / "wrapped.pickle", test::pickle_bytes(snapshot));
  const CliResult text = run_cli(dir, "wrapped.pickle -o out");
  REQUIRE(text.exit_code == 0);
  const std::string warning =
      "the allocator trace overflowed (trace_alloc_overflowed): only the last 7 events were kept, so memory "
      "allocated before them shows as pre-existing";
  CHECK(text.out.find("warning:       " + warning + "\n") != std::string::npos);
  const CliResult json = run_cli(dir, "wrapped.pickle -o out2 --summary json");
  CHECK(nlohmann::json::parse(json.out)["warnings"] == nlohmann::json::array({warning}));
  // The viewer reads it back from the converted elements.db.
  CHECK(trace_overflow_warning_in_db((dir / "out" / "elements.db").string()) == warning);
  write_fixture(dir);
  CHECK(nlohmann::json::parse(run_cli(dir, "s.pickle -o out3 --summary json").out)["warnings"].empty());
}
