// Command line of snapscope-convert. Parsing is separate from main() so it can be tested.
#pragma once

#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>

namespace snapscope {

// Bad command line; the CLI prints what() and the usage, and exits 2.
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

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
  uint64_t bench_queries = 1000;
  uint64_t bench_seed = 1;
};

extern const char* const kConvertUsage;

// `args` excludes argv[0].
CliOptions parse_convert_args(std::span<const std::string_view> args);

}  // namespace snapscope
