#include "converter/cli_args.h"

#include <charconv>
#include <limits>
#include <optional>
#include <string>

#include "core/snapshot/model.h"

namespace snapscope {

namespace {

uint64_t parse_number(std::string_view flag, std::string_view text, uint64_t max) {
  uint64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || text.empty() || value > max) {
    throw UsageError(std::string(flag) + ": not a valid number: '" + std::string(text) + "'");
  }
  return value;
}

void set_input(CliOptions& options, std::string_view path) {
  if (!options.input.empty()) throw UsageError("more than one input given: '" + std::string(path) + "'");
  options.input = std::string(path);
}

void set_device(CliOptions& options, std::string_view text) {
  const std::optional<int> device = parse_device(text);
  if (!device) throw UsageError("--device: not a device number or 'host': '" + std::string(text) + "'");
  options.device = *device;
}

void set_summary(CliOptions& options, std::string_view format) {
  if (format != "json" && format != "text") throw UsageError("--summary: expected text or json");
  options.json_summary = format == "json";
}

void set_queries(CliOptions& options, std::string_view text) {
  options.bench_queries = parse_number("--queries", text, uint64_t{1} << 32);
  if (options.bench_queries == 0) throw UsageError("--queries: must be at least 1");
}

void set_read_threads(CliOptions& options, std::string_view text) {
  options.read_threads = static_cast<unsigned>(parse_number("--read-threads", text, 64));
}

void check_complete(const CliOptions& options) {
  if (options.input.empty()) throw UsageError("missing input file");
  if (options.mode == CliOptions::Mode::Convert && options.output_dir.empty()) {
    throw UsageError("missing -o OUTDIR");
  }
}

std::string unknown_option(std::string_view arg) { return "unknown option '" + std::string(arg) + "'"; }

std::string more_than_one_input(std::string_view arg) {
  return "more than one input given: '" + std::string(arg) + "'";
}

constexpr std::string_view kConvertSynopsis =
    "usage: snapscope-convert IN.pickle[.gz] -o OUTDIR [--force] [--device N] [--summary text|json]\n"
    "                         [--timings] [--rank-summary] [--read-threads N]\n"
    "       snapscope-convert --report IN.pickle[.gz]|OUTDIR [--at peak|EVENT] [--device N] [--top N]\n"
    "                         [--location user|shown]\n"
    "       snapscope-convert --export FORMAT IN.pickle[.gz]|OUTDIR -o FILE [--at peak|EVENT] [--device N]\n"
    "                         [--range FIRST:LAST] [--location user|shown] [--view V] [--size WxH]\n"
    "       snapscope-convert --diff A B [--at peak|EVENT[,EVENT]] [--top N] [--summary json|csv]\n"
    "                         [--fail-if-peak-grows PCT]\n"
    "       snapscope-convert --ranks DIR|FILE... [--device N] [--outlier PCT] [--summary json]\n"
    "       snapscope-convert --bench-queries OUTDIR_OR_PICKLE [--queries N] [--seed S]\n"
    "\n";

ArgTable convert_table(CliOptions& o) {
  return {
      .synopsis = kConvertSynopsis,
      .positionals = {{"IN.pickle[.gz]", "", 0, 1, [&o](std::string_view path) { set_input(o, path); }, ""}},
      .options = {text_option({"-o", "--output"}, "OUTDIR",
                              "directory to create (elements.db + allocations.json.zst)", o.output_dir),
                  flag_option("--force", "replace OUTDIR if it holds an earlier conversion", o.force),
                  {{"--device"},
                   "N",
                   "convert only device N ('host': pinned host memory, device 128)",
                   [&o](std::string_view text) { set_device(o, text); }},
                  {{"--summary"},
                   "FORMAT",
                   "summary on stdout as text (default) or json",
                   [&o](std::string_view format) { set_summary(o, format); }},
                  flag_option("--timings", "per-step wall times and peak RSS on stderr", o.timings),
                  {{"--read-threads"},
                   "N",
                   "read the pickle on N threads (default 0: every core, up to 16, on machines with 4 "
                   "or more, else 1; inputs under 32 MB and gzip input read on one)",
                   [&o](std::string_view text) { set_read_threads(o, text); }},
                  flag_option(
                      "--rank-summary",
                      "also write OUTDIR.rank.json beside OUTDIR: this rank's figures and a downsampled "
                      "total/reserved curve, all that --ranks needs",
                      o.rank_summary),
                  {{"--bench-queries"},
                   "P",
                   "time random live_at / allocation_at queries on the largest device",
                   [&o](std::string_view path) {
                     o.mode = CliOptions::Mode::BenchQueries;
                     set_input(o, path);
                   }},
                  {{"--queries"},
                   "N",
                   "number of queries of each kind (default 1000)",
                   [&o](std::string_view text) { set_queries(o, text); }},
                  {{"--seed"},
                   "S",
                   "random seed of the query benchmark (default 1)",
                   [&o](std::string_view text) {
                     o.bench_seed = parse_number("--seed", text, std::numeric_limits<uint64_t>::max());
                   }}},
      .unknown_option = unknown_option,
      .extra_positional = more_than_one_input,
  };
}

// The modes main() hands their arguments to when they come first (converter/*_command.h).
const HelpRow kModeRows[] = {
    {"--report IN",
     "print the summary, the moment table at --at (default: the peak) and the phase table, no display "
     "needed (--report alone for its options)"},
    {"--export FORMAT",
     "write one export (speedscope, CSV tables, timeline JSON, Chrome trace, SVG; --export --help for its "
     "options)"},
    {"--diff A B",
     "what grew from A to B: peaks, and bytes per location at each peak (or --at); --fail-if-peak-grows "
     "PCT exits 3 past that growth (--diff --help)"},
    {"--ranks DIR",
     "one row per rank snapshot: peak, vs the median rank, phase and top location at the peak; outliers "
     "marked (--ranks --help)"},
};

}  // namespace

ArgTable convert_arg_table() {
  static CliOptions unused;  // the table is read, never parsed into
  return convert_table(unused);
}

std::string convert_usage() { return help_text(convert_arg_table(), kModeRows); }

CliOptions parse_convert_args(std::span<const std::string_view> args) {
  CliOptions options;
  if (parse_args(convert_table(options), args) == ArgsResult::HelpAsked) {
    options.mode = CliOptions::Mode::Help;
    return options;
  }
  check_complete(options);
  return options;
}

}  // namespace snapscope
