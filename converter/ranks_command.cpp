#include "converter/ranks_command.h"

#include "converter/subcommand.h"
#include "core/document/rank_set.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/analysis/annotation_pairing.h"
#include "core/analysis/live_elements.h"
#include "core/analysis/moment_table.h"
#include "core/analysis/phase_table.h"
#include "core/analysis/state_mapping.h"
#include "core/compare/rank_table.h"
#include "core/document/document.h"
#include "core/export/export_source.h"
#include "core/snapshot/snapshot_reader.h"
#include "core/util/parallel_jobs.h"
#include "core/util/printable.h"

namespace snapscope {

const char* const kRanksUsage =
    "usage: snapscope-convert --ranks DIR|FILE... [--device N] [--outlier PCT] [--summary json]\n"
    "  DIR       a directory of per-rank snapshots (every pickle, JSON snapshot and converted\n"
    "            directory inside it, sorted by name; or only its X.rank.json summaries, written\n"
    "            by --rank-summary, when it has any), or the files themselves\n"
    "  --device  device index in every rank (default: each one's first device with a trace)\n"
    "  --outlier mark ranks whose peak is more than PCT per cent from the median rank's (default 10)\n"
    "  --summary json   print JSON instead of text: median_peak and one object per rank\n";

namespace {

struct RanksOptions {
  std::vector<std::string> inputs;
  int device = -1;
  double outlier_percent = 10;
  bool json = false;
};

RanksOptions parse_ranks_args(std::span<const std::string_view> args) {
  RanksOptions options;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string_view arg = args[i];
    const bool takes_value = arg == "--device" || arg == "--outlier" || arg == "--summary";
    if (takes_value && i + 1 == args.size())
      throw subcommand::UsageError(std::string(arg) + " needs a value");
    if (arg == "--device") {
      options.device = subcommand::parse_device_option(args[++i], arg);
    } else if (arg == "--outlier") {
      options.outlier_percent = static_cast<double>(subcommand::parse_non_negative(args[++i], arg));
    } else if (arg == "--summary") {
      if (args[++i] != "json") throw subcommand::UsageError("--summary needs 'json'");
      options.json = true;
    } else if (arg.starts_with("-")) {
      throw subcommand::UsageError("unexpected argument '" + std::string(arg) + "'");
    } else {
      options.inputs.emplace_back(arg);
    }
  }
  if (options.inputs.empty()) throw subcommand::UsageError("--ranks needs a directory or files");
  return options;
}

nlohmann::json ranks_json(const RankTable& table) {
  nlohmann::json ranks = nlohmann::json::array();
  for (const RankRow& row : table.rows) {
    const RankSummary& rank = row.summary;
    ranks.push_back({{"file", rank.file},
                     {"device", rank.device},
                     {"peak_bytes", rank.peak_bytes},
                     {"peak_event", rank.peak_event},
                     {"reserved_peak", rank.reserved_peak},
                     {"phase_at_peak", rank.phase_at_peak},
                     {"top_location", rank.top_location},
                     {"top_location_bytes", rank.top_location_bytes},
                     {"top_category", rank.top_category},
                     {"top_category_bytes", rank.top_category_bytes},
                     {"deviation_percent", row.deviation_percent},
                     {"outlier", row.outlier}});
  }
  return {{"median_peak", table.median_peak}, {"outlier_percent", table.outlier_percent}, {"ranks", ranks}};
}

int run_parsed(const RanksOptions& options, std::FILE* out) {
  const RankTable table =
      load_rank_table(expand_rank_inputs(options.inputs), options.device, options.outlier_percent);
  if (options.json) {
    std::fprintf(out, "%s\n", ranks_json(table).dump(2).c_str());
  } else {
    std::fputs(printable_lines(rank_table_text(table)).c_str(), out);
  }
  return 0;
}

}  // namespace

int run_ranks(std::span<const std::string_view> args, std::FILE* out, std::FILE* err) {
  return subcommand::run(
      args, out, err, kRanksUsage, parse_ranks_args,
      [out](const RanksOptions& options) { return run_parsed(options, out); },
      [](const RanksOptions& options) { return options.inputs.front(); });
}

}  // namespace snapscope
