#include "converter/ranks_command.h"

#include "converter/subcommand.h"
#include "core/document/rank_set.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <limits>
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

namespace {

struct RanksOptions {
  std::vector<std::string> inputs;
  int device = -1;
  double outlier_percent = 10;
  bool json = false;
};

void set_json(RanksOptions& options, std::string_view value) {
  if (value != "json") throw UsageError("--summary needs 'json'");
  options.json = true;
}

constexpr std::string_view kRanksSynopsis =
    "usage: snapscope-convert --ranks DIR|FILE... [--device N] [--outlier PCT] [--summary json]\n";

ArgTable ranks_table(RanksOptions& o) {
  return {
      .synopsis = kRanksSynopsis,
      .positionals =
          {{"DIR|FILE...",
            "a directory of per-rank snapshots (every pickle, JSON snapshot and converted directory "
            "inside it, sorted by name; or only its X.rank.json summaries, written by "
            "--rank-summary, when it has any), or the files themselves",
            1, std::numeric_limits<size_t>::max(),
            [&o](std::string_view path) { o.inputs.emplace_back(path); },
            "--ranks needs a directory or files"}},
      .options = {subcommand::device_option(
                      o.device, "device index in every rank (default: each one's first device with a trace)"),
                  {{"--outlier"},
                   "PCT",
                   "mark ranks whose peak is more than PCT per cent from the median rank's (default 10)",
                   [&o](std::string_view value) {
                     o.outlier_percent = static_cast<double>(parse_non_negative(value, "--outlier"));
                   }},
                  {{"--summary"},
                   "json",
                   "print JSON instead of text: median_peak and one object per rank",
                   [&o](std::string_view value) { set_json(o, value); }}},
  };
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

ArgTable ranks_arg_table() {
  static RanksOptions unused;  // the table is read, never parsed into
  return ranks_table(unused);
}

std::string ranks_usage() { return help_text(ranks_arg_table()); }

int run_ranks(std::span<const std::string_view> args, std::FILE* out, std::FILE* err) {
  const auto parse = [](std::span<const std::string_view> parsed) {
    return subcommand::parse_table(parsed, ranks_table);
  };
  return subcommand::run(
      args, out, err, ranks_usage(), parse,
      [out](const RanksOptions& options) { return run_parsed(options, out); },
      [](const RanksOptions& options) { return options.inputs.front(); });
}

}  // namespace snapscope
