// snapscope-convert: converts a PyTorch CUDA memory snapshot pickle into a directory with
// elements.db and allocations.json (docs/FORMAT.md), or benchmarks live-set queries.
#include <unistd.h>

#include <cstdio>
#include <exception>
#include <filesystem>
#include <new>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

#include "converter/cli_args.h"
#include "converter/conversion_summary.h"
#include "converter/diff_command.h"
#include "converter/export_command.h"
#include "converter/progress_meter.h"
#include "converter/query_bench.h"
#include "converter/ranks_command.h"
#include "converter/report_command.h"
#include "converter/subcommand.h"
#include "core/convert/convert.h"
#include "core/convert/signal_cleanup.h"
#include "core/document/rank_set.h"
#include "core/store/version/version.h"
#include "core/util/output_file.h"

namespace {

std::string rank_summary_path(std::string output_dir) {
  while (output_dir.size() > 1 && output_dir.back() == '/') output_dir.pop_back();
  return output_dir + ".rank.json";
}

// --rank-summary: OUTDIR.rank.json beside OUTDIR. If it cannot be written, the conversion is
// removed too (no partial output) and the error is the summary's one line.
void write_rank_summary(const snapscope::ConvertSummary& summary, int device) {
  try {
    snapscope::write_rank_summary_file(summary.output_dir,
                                       snapscope::summarise_rank(summary.output_dir, device));
  } catch (...) {
    std::error_code ignored;
    std::filesystem::remove_all(summary.output_dir, ignored);
    throw;
  }
}

int run_conversion(const snapscope::CliOptions& cli) {
  // Something in the summary's way (a directory, a symlink loop) fails before converting; a
  // missing parent is fine: the conversion makes it.
  std::error_code absent;
  if (cli.rank_summary && !cli.output_dir.empty() &&
      std::filesystem::symlink_status(rank_summary_path(cli.output_dir), absent).type() !=
          std::filesystem::file_type::not_found)
    snapscope::check_output_path(rank_summary_path(cli.output_dir));
  snapscope::ConvertOptions options;
  options.input = cli.input;
  options.output_dir = cli.output_dir;
  options.force = cli.force;
  options.device = cli.device;
  options.read_threads = cli.read_threads;
  snapscope::StageLog stage_log;
  if (cli.timings) options.stage_log = &stage_log;
  std::optional<snapscope::ProgressMeter> meter;
  if (::isatty(STDERR_FILENO)) {
    meter.emplace(stderr);
    options.on_progress = [&](const snapscope::ConvertProgress& progress) { meter->update(progress); };
  }
  try {
    const snapscope::ConvertSummary summary = snapscope::convert_snapshot(options);
    if (meter) meter->finish();
    if (cli.timings) std::fputs(stage_log.format().c_str(), stderr);
    if (cli.rank_summary) write_rank_summary(summary, cli.device);
    const std::string text = cli.json_summary ? snapscope::summary_with_analysis(summary).dump(2) + "\n"
                                              : snapscope::format_summary_text(summary);
    std::fputs(text.c_str(), stdout);
    return snapscope::subcommand::kExitOk;
  } catch (...) {
    if (meter) meter->finish();
    throw;
  }
}

int run_bench(const snapscope::CliOptions& cli) {
  const auto result = snapscope::run_query_bench(cli.input, cli.bench_queries, cli.bench_seed);
  std::fputs(snapscope::format_query_bench(result).c_str(), stdout);
  return snapscope::subcommand::kExitOk;
}

// The modes that take over the command line when they come first (converter/*_command.h).
using ModeRun = int (*)(std::span<const std::string_view> args, std::FILE* out, std::FILE* err);
constexpr std::pair<std::string_view, ModeRun> kModes[] = {{"--report", snapscope::run_report},
                                                           {"--diff", snapscope::run_diff},
                                                           {"--ranks", snapscope::run_ranks},
                                                           {"--export", snapscope::run_export}};

}  // namespace

int main(int argc, char** argv) {
  if (snapscope::asks_for_version(argc, argv))
    return std::fputs(snapscope::version_text("snapscope-convert").c_str(), stdout), 0;
  const std::vector<std::string_view> args(argv + 1, argv + argc);
  // Before any mode: an interrupted export or rank summary removes its temporary too.
  snapscope::signal_cleanup::install("snapscope-convert");
  for (const auto& [name, run_mode] : kModes) {
    if (!args.empty() && args.front() == name) return run_mode(std::span(args).subspan(1), stdout, stderr);
  }
  const auto parse = [](std::span<const std::string_view> parsed) {
    snapscope::CliOptions cli = snapscope::parse_convert_args(parsed);
    return cli.mode == snapscope::CliOptions::Mode::Help ? std::nullopt : std::optional(cli);
  };
  const auto run_parsed = [](const snapscope::CliOptions& cli) {
    try {
      return cli.mode == snapscope::CliOptions::Mode::BenchQueries ? run_bench(cli) : run_conversion(cli);
    } catch (const std::logic_error& error) {
      // A bug of ours (out_of_range, length_error...), never the file's fault: name the file anyway.
      throw std::runtime_error(cli.input +
                               ": internal error (please report it with the file): " + error.what());
    }
  };
  return snapscope::subcommand::run(args, stdout, stderr, snapscope::convert_usage(), parse, run_parsed,
                                    [](const snapscope::CliOptions& cli) { return cli.input; });
}
