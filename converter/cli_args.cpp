#include "converter/cli_args.h"

#include <charconv>
#include <limits>
#include <optional>

#include "core/snapshot/model.h"

namespace snapscope {

const char* const kConvertUsage =
    "usage: snapscope-convert IN.pickle[.gz] -o OUTDIR [--force] [--device N] [--summary text|json]\n"
    "                         [--timings] [--rank-summary]\n"
    "       snapscope-convert --report IN.pickle[.gz]|OUTDIR [--at peak|EVENT] [--device N] [--top N]\n"
    "                         [--location user|shown]\n"
    "       snapscope-convert --export FORMAT IN.pickle[.gz]|OUTDIR -o FILE [--at peak|EVENT] [--device N]\n"
    "                         [--range FIRST:LAST] [--location user|shown] [--view V] [--size WxH]\n"
    "       snapscope-convert --diff A B [--at peak|EVENT[,EVENT]] [--top N] [--summary json|csv]\n"
    "                         [--fail-if-peak-grows PCT]\n"
    "       snapscope-convert --ranks DIR|FILE... [--device N] [--outlier PCT] [--summary json]\n"
    "       snapscope-convert --bench-queries OUTDIR_OR_PICKLE [--queries N] [--seed S]\n"
    "\n"
    "  -o, --output OUTDIR  directory to create (elements.db + allocations.json.zst)\n"
    "  --force              replace OUTDIR if it holds an earlier conversion\n"
    "  --device N           convert only device N ('host': pinned host memory, device 128)\n"
    "  --summary FORMAT     summary on stdout as text (default) or json\n"
    "  --timings            per-step wall times and peak RSS on stderr\n"
    "  --rank-summary       also write OUTDIR.rank.json beside OUTDIR: this rank's figures and a\n"
    "                       downsampled total/reserved curve, all that --ranks needs\n"
    "  --report IN          print the summary, the moment table at --at (default: the peak) and the\n"
    "                       phase table, no display needed (--report alone for its options)\n"
    "  --export FORMAT      write one export (speedscope, CSV tables, timeline JSON, Chrome trace, SVG;\n"
    "                       --export --help for its options)\n"
    "  --diff A B           what grew from A to B: peaks, and bytes per location at each peak (or\n"
    "                       --at); --fail-if-peak-grows PCT exits 3 past that growth (--diff --help)\n"
    "  --ranks DIR          one row per rank snapshot: peak, vs the median rank, phase and top\n"
    "                       location at the peak; outliers marked (--ranks --help)\n"
    "  --bench-queries P    time random live_at / allocation_at queries on the largest device\n"
    "  --queries N          number of queries of each kind (default 1000)\n"
    "  --seed S             random seed of the query benchmark (default 1)\n"
    "  -h, --help           show this help\n";

namespace {

uint64_t parse_number(std::string_view flag, std::string_view text, uint64_t max) {
  uint64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || text.empty() || value > max) {
    throw UsageError(std::string(flag) + ": not a valid number: '" + std::string(text) + "'");
  }
  return value;
}

class ArgCursor {
 public:
  explicit ArgCursor(std::span<const std::string_view> args) : args_(args) {}
  bool done() const { return next_ >= args_.size(); }
  std::string_view take() { return args_[next_++]; }
  // The value of a flag, given as "--flag value" or "--flag=value".
  std::string_view value_of(std::string_view flag, std::string_view inline_value, bool has_inline) {
    if (has_inline) return inline_value;
    if (done()) throw UsageError(std::string(flag) + " needs a value");
    return take();
  }

 private:
  std::span<const std::string_view> args_;
  size_t next_ = 0;
};

void set_input(CliOptions& options, std::string_view path) {
  if (!options.input.empty()) throw UsageError("more than one input given: '" + std::string(path) + "'");
  options.input = std::string(path);
}

void check_complete(const CliOptions& options) {
  if (options.mode == CliOptions::Mode::Help) return;
  if (options.input.empty()) throw UsageError("missing input file");
  if (options.mode == CliOptions::Mode::Convert && options.output_dir.empty()) {
    throw UsageError("missing -o OUTDIR");
  }
}

}  // namespace

CliOptions parse_convert_args(std::span<const std::string_view> args) {
  CliOptions options;
  ArgCursor cursor(args);
  bool only_positional = false;
  while (!cursor.done()) {
    const std::string_view arg = cursor.take();
    if (only_positional || arg.empty() || arg[0] != '-' || arg == "-") {
      set_input(options, arg);
      continue;
    }
    const size_t equals = arg.find('=');
    const bool has_inline = equals != std::string_view::npos && arg.starts_with("--");
    const std::string_view flag = has_inline ? arg.substr(0, equals) : arg;
    const std::string_view inline_value = has_inline ? arg.substr(equals + 1) : std::string_view();
    auto value = [&] { return cursor.value_of(flag, inline_value, has_inline); };
    if (flag == "--") {
      only_positional = true;
    } else if (flag == "-h" || flag == "--help") {
      options.mode = CliOptions::Mode::Help;
    } else if (flag == "-o" || flag == "--output") {
      options.output_dir = std::string(value());
    } else if (flag == "--force" && !has_inline) {
      options.force = true;
    } else if (flag == "--device") {
      const std::string_view text = value();
      const std::optional<int> device = parse_device(text);
      if (!device) throw UsageError("--device: not a device number or 'host': '" + std::string(text) + "'");
      options.device = *device;
    } else if (flag == "--timings" && !has_inline) {
      options.timings = true;
    } else if (flag == "--rank-summary" && !has_inline) {
      options.rank_summary = true;
    } else if (flag == "--summary") {
      const std::string_view format = value();
      if (format != "json" && format != "text") throw UsageError("--summary: expected text or json");
      options.json_summary = format == "json";
    } else if (flag == "--bench-queries") {
      options.mode = CliOptions::Mode::BenchQueries;
      set_input(options, value());
    } else if (flag == "--queries") {
      options.bench_queries = parse_number(flag, value(), uint64_t{1} << 32);
      if (options.bench_queries == 0) throw UsageError("--queries: must be at least 1");
    } else if (flag == "--seed") {
      options.bench_seed = parse_number(flag, value(), std::numeric_limits<uint64_t>::max());
    } else {
      throw UsageError("unknown option '" + std::string(arg) + "'");
    }
  }
  check_complete(options);
  return options;
}

}  // namespace snapscope
