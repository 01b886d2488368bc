#include "converter/ranks_command.h"

#include "converter/rank_summary.h"
#include "converter/subcommand.h"

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
#include "core/export/export_source.h"
#include "core/snapshot/snapshot_reader.h"
#include "core/util/parallel_jobs.h"
#include "core/view/document.h"

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

bool is_converted_dir(const std::filesystem::path& path) {
  return std::filesystem::is_directory(path) && std::filesystem::exists(path / "elements.db");
}

// A snapshot of one rank inside a job directory; memory_viz's own layouts (NAME.memviz.json)
// sit beside snapshots but are not snapshots.
bool is_rank_snapshot(const std::filesystem::path& path) {
  if (is_converted_dir(path)) return true;
  return is_snapshot_pickle(path) && !path.filename().string().ends_with(".memviz.json");
}

// A directory that is not itself a converted snapshot lists its ranks: their summary files
// (X.rank.json, written by --rank-summary) when it has any, else every snapshot in it.
std::vector<std::string> expand_inputs(const std::vector<std::string>& given) {
  std::vector<std::string> inputs;
  for (const std::string& input : given) {
    const std::filesystem::path path(input);
    if (!std::filesystem::is_directory(path) || is_converted_dir(path)) {
      inputs.push_back(input);
      continue;
    }
    std::vector<std::string> found, summaries;
    for (const auto& entry : std::filesystem::directory_iterator(path)) {
      if (is_rank_summary_file(entry.path().string())) summaries.push_back(entry.path().string());
      if (is_rank_snapshot(entry.path())) found.push_back(entry.path().string());
    }
    if (!summaries.empty()) found = std::move(summaries);
    if (found.empty()) throw InputError(input + ": no snapshots (pickles or converted directories) inside");
    std::sort(found.begin(), found.end());
    inputs.insert(inputs.end(), found.begin(), found.end());
  }
  return inputs;
}

RanksOptions parse_ranks_args(std::span<const std::string_view> args) {
  RanksOptions options;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string_view arg = args[i];
    const bool takes_value = arg == "--device" || arg == "--outlier" || arg == "--summary";
    if (takes_value && i + 1 == args.size())
      throw subcommand::UsageError(std::string(arg) + " needs a value");
    if (arg == "--device") {
      options.device = static_cast<int>(subcommand::parse_non_negative(args[++i], arg));
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
  const std::vector<std::string> inputs = expand_inputs(options.inputs);
  // One rank per core at a time: a rank's timelines are freed as soon as it is summarised.
  std::vector<RankSummary> summaries(inputs.size());
  ParallelJobs jobs;
  for (size_t i = 0; i < inputs.size(); ++i) {
    std::error_code ignored;
    const auto size =
        std::filesystem::is_regular_file(inputs[i]) ? std::filesystem::file_size(inputs[i], ignored) : 0;
    jobs.add(static_cast<size_t>(size), [&, i] {
      summaries[i] = is_rank_summary_file(inputs[i]) ? read_rank_summary_file(inputs[i])
                                                     : summarise_rank(inputs[i], options.device);
    });
  }
  jobs.run();
  const RankTable table = build_rank_table(std::move(summaries), options.outlier_percent);
  if (options.json) {
    std::fprintf(out, "%s\n", ranks_json(table).dump(2).c_str());
  } else {
    std::fputs(rank_table_text(table).c_str(), out);
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
