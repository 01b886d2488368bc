// --export chrome-trace --align-to / --merge-into on a trace shaped as current Kineto writes it
// (ts in µs after baseTimeNanoseconds, the device index and the OS pid as pids): our counters land
// in its frame under a pid of their own, and merged, one file holds both with its fields intact.
#include <doctest/doctest.h>

#include <cstdint>
#include <filesystem>
#include <set>
#include <string>

#include <nlohmann/json.hpp>

#include "unit/support/cli_runner.h"
#include "unit/support/generated_snapshot.h"
#include "unit/support/test_store_fixture.h"

using namespace snapscope;
using snapscope::test::CliResult;
using snapscope::test::run_cli;
using snapscope::test::TempDir;

namespace {

const nlohmann::json& first_counter(const nlohmann::json& trace) {
  for (const nlohmann::json& event : trace["traceEvents"]) {
    if (event["ph"] == "C") return event;
  }
  FAIL("no counter event");
  return trace;
}

// A Kineto-shaped trace whose base time lies 5000.123 µs before the snapshot's first action.
nlohmann::json kineto_trace(int64_t base_ns) {
  return {{"schemaVersion", 1},
          {"deviceProperties", {{{"id", 0}, {"name", "NVIDIA H100"}}}},
          {"traceEvents",
           {{{"ph", "X"},
             {"cat", "kernel"},
             {"name", "sm80_gemm"},
             {"pid", 0},
             {"tid", 7},
             {"ts", 5100.5},
             {"dur", 12}},
            {{"ph", "X"},
             {"cat", "cpu_op"},
             {"name", "aten::mm"},
             {"pid", 4242},
             {"tid", 4242},
             {"ts", 5000},
             {"dur", 3}},
            {{"ph", "M"}, {"name", "process_name"}, {"pid", 0}, {"args", {{"name", "GPU 0"}}}}}},
          {"traceName", "rank0.pt.trace.json"},
          {"baseTimeNanoseconds", base_ns}};
}

}  // namespace

TEST_CASE("cli: --export chrome-trace --align-to writes in a Kineto trace's frame, under a pid of its own") {
  TempDir dir;
  test::write_generated(dir / "g.pickle", 2000, 5);
  REQUIRE(run_cli(dir, "--export chrome-trace g.pickle -o plain.json").exit_code == 0);
  const nlohmann::json plain = nlohmann::json::parse(test::read_file(dir / "plain.json"));
  const int64_t first_us = first_counter(plain)["ts"].get<int64_t>();
  test::write_file(dir / "prof.json", kineto_trace(first_us * 1000 - 5000123).dump());

  const CliResult aligned =
      run_cli(dir, "--export chrome-trace g.pickle -o aligned.json --align-to prof.json");
  REQUIRE(aligned.exit_code == 0);
  const nlohmann::json ours = nlohmann::json::parse(test::read_file(dir / "aligned.json"));
  CHECK(first_counter(ours)["ts"].get<double>() == doctest::Approx(5000.123).epsilon(1e-12));
  for (const nlohmann::json& event : ours["traceEvents"]) CHECK(event["pid"] == 4243);  // above 4242
  CHECK(ours["traceEvents"].size() == plain["traceEvents"].size());

  const CliResult merged =
      run_cli(dir, "--export chrome-trace g.pickle -o merged.json --merge-into prof.json");
  REQUIRE(merged.exit_code == 0);
  const nlohmann::json both = nlohmann::json::parse(test::read_file(dir / "merged.json"));
  CHECK(both["traceEvents"].size() == 3 + plain["traceEvents"].size());
  CHECK(both["traceEvents"][0]["name"] == "sm80_gemm");
  CHECK(both["baseTimeNanoseconds"] == first_us * 1000 - 5000123);
  CHECK(both["deviceProperties"][0]["name"] == "NVIDIA H100");
  std::set<int64_t> pids;
  for (const nlohmann::json& event : both["traceEvents"]) pids.insert(event["pid"].get<int64_t>());
  CHECK(pids == std::set<int64_t>{0, 4242, 4243});
}

TEST_CASE("cli: --align-to refuses what is not a profiler trace, naming it, and writes nothing") {
  TempDir dir;
  test::write_generated(dir / "g.pickle", 2000, 5);
  test::write_file(dir / "list.json", "[1, 2]");
  test::write_file(dir / "broken.json", "{\"traceEvents\": [");
  test::write_file(dir / "base.json", R"({"traceEvents": [], "baseTimeNanoseconds": "soon"})");
  const std::pair<const char*, const char*> cases[] = {
      {"list.json", "list.json: not a Chrome / torch.profiler trace (no traceEvents array)"},
      {"broken.json", "broken.json: not a JSON profiler trace (the JSON does not parse)"},
      {"base.json", "base.json: baseTimeNanoseconds is not a non-negative integer"},
      {"missing.json", "missing.json: "}};
  for (const auto& [case_file, case_message] : cases) {
    // Plain copies: CAPTURE's lambda cannot name a structured binding under clang 14.
    const char* file = case_file;
    const char* message = case_message;
    CAPTURE(file);
    const CliResult result =
        run_cli(dir, std::string("--export chrome-trace g.pickle -o out.json --merge-into ") + file);
    CHECK(result.exit_code == 1);
    CHECK(result.err.find(message) != std::string::npos);
    CHECK(!std::filesystem::exists(dir / "out.json"));
  }
  const CliResult usage = run_cli(dir, "--export svg g.pickle -o out.svg --align-to list.json");
  CHECK(usage.exit_code == 2);
  CHECK(usage.err.find("--align-to and --merge-into line up a chrome-trace export") != std::string::npos);
}
