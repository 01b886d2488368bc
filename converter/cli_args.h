// Command line of snapscope-convert's conversion (and --bench-queries) mode. Parsing is separate
// from main() so it can be tested.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "core/util/arg_parser.h"

namespace snapscope {

struct CliOptions {
  enum class Mode : uint8_t { Convert, BenchQueries, Help };
  Mode mode = Mode::Convert;
  std::string input;  // pickle, or for BenchQueries also an output directory
  std::string output_dir;
  bool force = false;
  int device = -1;
  bool json_summary = false;
  bool timings = false;       // per-step times and peak RSS on stderr
  bool rank_summary = false;  // write OUTDIR.rank.json (converter/rank_summary.h)
  unsigned read_threads = 0;  // ConvertOptions::read_threads; 0: chosen by the usable cores
  uint64_t bench_queries = 1000;
  uint64_t bench_seed = 1;
};

// The conversion's command line (its table bound to options never read: for help and its tests).
ArgTable convert_arg_table();
// Every mode's synopsis, the conversion's options and the other modes (--report, --diff...).
std::string convert_usage();

// `args` excludes argv[0]. Throws UsageError.
CliOptions parse_convert_args(std::span<const std::string_view> args);

}  // namespace snapscope
