// snapscope-convert's command-line parsing and its progress line.
#include <doctest/doctest.h>

#include <string_view>
#include <vector>

#include "converter/cli_args.h"
#include "converter/progress_meter.h"
#include "core/snapshot/model.h"

using namespace snapscope;

namespace {
CliOptions parse(std::vector<std::string_view> args) { return parse_convert_args(args); }
}  // namespace

TEST_CASE("cli args: a full conversion command") {
  const CliOptions options =
      parse({"in.pickle.gz", "-o", "out", "--force", "--device", "2", "--summary", "json", "--timings"});
  CHECK(options.mode == CliOptions::Mode::Convert);
  CHECK(options.input == "in.pickle.gz");
  CHECK(options.output_dir == "out");
  CHECK(options.force);
  CHECK(options.device == 2);
  CHECK(options.json_summary);
  CHECK(options.timings);
}

TEST_CASE("cli args: --flag=value forms and defaults") {
  const CliOptions options = parse({"--output=dir", "--summary=text", "x.pickle"});
  CHECK(options.output_dir == "dir");
  CHECK_FALSE(options.json_summary);
  CHECK_FALSE(options.force);
  CHECK_FALSE(options.timings);
  CHECK(options.device == -1);
  CHECK(options.read_threads == 0);  // chosen by the usable cores
  CHECK(parse({"in", "-o", "x", "--read-threads", "4"}).read_threads == 4);
  CHECK(parse({"in", "-o", "x", "--device", "host"}).device == kHostDevice);  // pinned host memory
  CHECK(parse({"in", "-o", "x", "--device=host1"}).device == kHostDevice + 1);
  CHECK(parse({"-o", "out", "--", "-odd-name.pickle"}).input ==
        "-odd-name.pickle");  // after --, all positional
}

TEST_CASE("cli args: bench mode needs no output directory") {
  const CliOptions options = parse({"--bench-queries", "out", "--queries", "20", "--seed", "9"});
  CHECK(options.mode == CliOptions::Mode::BenchQueries);
  CHECK(options.input == "out");
  CHECK(options.bench_queries == 20);
  CHECK(options.bench_seed == 9);
}

TEST_CASE("cli args: usage errors") {
  CHECK_THROWS_WITH_AS(parse({}), "missing input file", UsageError);
  CHECK_THROWS_WITH_AS(parse({"in"}), "missing -o OUTDIR", UsageError);
  CHECK_THROWS_WITH_AS(parse({"in", "-o"}), "-o needs a value", UsageError);
  CHECK_THROWS_WITH_AS(parse({"in", "-o", "x", "--bogus"}), "unknown option '--bogus'", UsageError);
  CHECK_THROWS_WITH_AS(parse({"in", "-o", "x", "--device", "-1"}),
                       "--device: not a device number or 'host': '-1'", UsageError);
  CHECK_THROWS_WITH_AS(parse({"in", "-o", "x", "--device", "99999999999"}),
                       "--device: not a device number or 'host': '99999999999'", UsageError);
  CHECK_THROWS_WITH_AS(parse({"in", "-o", "x", "--summary", "xml"}), "--summary: expected text or json",
                       UsageError);
  CHECK_THROWS_WITH_AS(parse({"in", "-o", "x", "--read-threads", "65"}),
                       "--read-threads: not a valid number: '65'", UsageError);
  CHECK_THROWS_WITH_AS(parse({"a", "b", "-o", "x"}), "more than one input given: 'b'", UsageError);
  CHECK_THROWS_WITH_AS(parse({"--bench-queries", "x", "--queries", "0"}), "--queries: must be at least 1",
                       UsageError);
  CHECK(parse({"-h"}).mode == CliOptions::Mode::Help);
}

TEST_CASE("progress line: percent, megabytes and rate") {
  const std::string line = ProgressMeter::render({ConvertStage::Reading, 250'000'000, 1'000'000'000}, 2.0);
  CHECK(line.starts_with("reading"));
  CHECK(line.find("[#######                       ]") != std::string::npos);
  CHECK(line.find(" 25.0%") != std::string::npos);
  CHECK(line.find("250.0/1000.0 MB") != std::string::npos);
  CHECK(line.find("125.0 MB/s") != std::string::npos);
  CHECK(ProgressMeter::render({ConvertStage::Writing, 10, 10}, 0).find("100.0%") != std::string::npos);
}
