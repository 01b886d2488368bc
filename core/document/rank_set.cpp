#include "core/document/rank_set.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>

#include "core/analysis/live_elements.h"
#include "core/analysis/moment_table.h"
#include "core/analysis/phase_table.h"
#include "core/analysis/state_mapping.h"
#include "core/classify/classifier.h"
#include "core/document/content_key.h"
#include "core/document/document.h"
#include "core/export/export_source.h"
#include "core/snapshot/snapshot_reader.h"
#include "core/store/allocations_json/allocations_json.h"
#include "core/util/output_file.h"
#include "core/util/parallel_jobs.h"
#include "core/util/regular_file.h"

namespace snapscope {
namespace {

constexpr const char* kSuffix = ".rank.json";
constexpr uint64_t kMaxSummaryBytes = uint64_t{1} << 20;
// The stamp hashes the layout file's last 64 KiB (its last zstd frame's checksum lies there) and
// its size: it tells a reconversion apart, not a forgery (whoever can rewrite the directory can
// rewrite the summary too).
constexpr size_t kStampTailBytes = size_t{64} << 10;
constexpr uint64_t kStampSeed = 0x72616e6b5f737470ull;

std::string phase_at(const AnalysisSource& source, size_t state) {
  const PhaseTable phases =
      build_phase_table(*source.blocks, pair_annotations(source.annotations, source.device));
  const PhaseRow* innermost = nullptr;
  for (const PhaseRow& row : phases.rows) {
    if (row.start_state <= state && state <= row.end_state && (!innermost || row.depth >= innermost->depth))
      innermost = &row;
  }
  return innermost ? innermost->name : std::string();
}

// The largest total in each of kRankCurvePoints stretches of the trace's states.
std::vector<uint64_t> downsampled(const Timeline& timeline) {
  const size_t states = timeline.action_count() + 1;
  const size_t points = std::min(states, kRankCurvePoints);
  std::vector<uint64_t> curve(points, 0);
  for (size_t state = 0; state < states; ++state) {
    uint64_t& point = curve[state * points / states];
    point = std::max(point, timeline.total_at_state(state));
  }
  return curve;
}

// A summary whose directory is beside it must agree with it: rebuilt from the directory when it was
// reconverted since (or the summary predates stamps) or another device is asked for; without the
// directory, the summary is all there is, and another device is refused.
RankSummary checked_summary(const std::string& path, int device) {
  RankSummary summary = read_rank_summary_file(path);
  std::error_code error;
  const bool beside = std::filesystem::is_directory(summary.file, error);
  if (beside && directory_stamp(summary.file) != summary.directory_stamp)
    return summarise_rank(summary.file, device);
  if (device < 0 || summary.device == device) return summary;
  if (beside) return summarise_rank(summary.file, device);
  throw InputError(path + ": summarises device " + std::to_string(summary.device) + ", not device " +
                   std::to_string(device) + " (and its converted directory is not beside it)");
}

}  // namespace

std::string directory_stamp(const std::string& directory) {
  const std::filesystem::path layout = allocations_file_in(directory);
  if (layout.empty()) return {};
  std::string error;
  const int fd = open_regular_file(layout.string(), error);
  if (fd < 0) return {};
  struct stat status {};
  std::string tail(kStampTailBytes, '\0');
  ssize_t got = -1;
  if (::fstat(fd, &status) == 0) {
    const off_t start = std::max<off_t>(0, status.st_size - static_cast<off_t>(kStampTailBytes));
    got = ::pread(fd, tail.data(), tail.size(), start);
  }
  ::close(fd);
  if (got < 0) return {};
  tail.resize(static_cast<size_t>(got));
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx",
                static_cast<unsigned long long>(content_hash(tail.data(), tail.size(), kStampSeed)));
  return std::string(hex) + "-" + std::to_string(status.st_size);
}

RankSummary summarise_rank(const std::string& path, int device) {
  SourceOptions options;
  options.device = device;
  const AnalysisSource source = load_analysis_source(path, options);
  const Timeline& timeline = *source.blocks;
  const size_t peak = peak_state(timeline);
  const std::vector<LiveElement> live = live_elements(timeline, peak);
  LocationIndex locations(*source.stacks, LocationRule::FirstUserFrame);
  const MomentTable moment = build_moment_table(live, locations, peak);
  RankSummary summary;
  summary.file = path;
  std::error_code error;
  if (std::filesystem::is_directory(path, error)) summary.directory_stamp = directory_stamp(path);
  summary.device = source.device;
  summary.peak_bytes = timeline.peak_bytes();
  summary.peak_event = event_of_state(timeline, peak);
  summary.reserved_peak = source.reserved.peak();
  summary.phase_at_peak = phase_at(source, peak);
  if (!moment.rows.empty()) {
    summary.top_location = moment.rows.front().label;
    summary.top_location_bytes = moment.rows.front().bytes;
  }
  const Classification classification = classify_allocations({timeline, *source.stacks, source.annotations});
  const std::vector<uint64_t> categories = category_bytes_at(classification, timeline, peak);
  const auto top = std::max_element(categories.begin(), categories.end());
  if (top != categories.end() && *top > 0) {
    summary.top_category = classification.names.name(static_cast<CategoryId>(top - categories.begin()));
    summary.top_category_bytes = *top;
  }
  summary.total_curve = downsampled(timeline);
  if (source.segments) summary.reserved_curve = downsampled(*source.segments);
  return summary;
}

std::string write_rank_summary_file(const std::string& output_dir, const RankSummary& summary) {
  std::string trimmed = output_dir;
  while (trimmed.size() > 1 && trimmed.back() == '/') trimmed.pop_back();
  const std::string path = trimmed + kSuffix;
  RankSummary beside = summary;
  beside.file = std::filesystem::path(trimmed).filename().string();  // resolved beside the summary
  write_output_file(path, rank_summary_json(beside).dump(1) + "\n");
  return path;
}

RankSummary read_rank_summary_file(const std::string& path) {
  std::string error;
  const std::string text = read_regular_file(path, kMaxSummaryBytes, error);
  if (error.starts_with("larger")) throw InputError(path + ": not a rank summary (larger than 1 MiB)");
  if (!error.empty()) throw InputError(path + ": cannot read the rank summary (" + error + ")");
  RankSummary summary = parse_rank_summary(text, path);
  summary.file = (std::filesystem::path(path).parent_path() / summary.file).string();
  return summary;
}

bool is_rank_summary_file(const std::string& path) { return path.ends_with(kSuffix); }

namespace {

bool is_converted_dir(const std::filesystem::path& path) {
  return std::filesystem::is_directory(path) && std::filesystem::exists(path / "elements.db");
}

// memory_viz's own layouts (NAME.memviz.json) sit beside snapshots but are not snapshots.
bool is_rank_snapshot(const std::filesystem::path& path) {
  if (is_converted_dir(path)) return true;
  return is_snapshot_pickle(path) && !path.filename().string().ends_with(".memviz.json");
}

}  // namespace

bool is_rank_directory(const std::string& path) {
  return std::filesystem::is_directory(path) && !is_converted_dir(path) && allocations_file_in(path).empty();
}

std::vector<std::string> expand_rank_inputs(const std::vector<std::string>& given) {
  std::vector<std::string> inputs;
  for (const std::string& input : given) {
    if (!is_rank_directory(input)) {
      inputs.push_back(input);
      continue;
    }
    std::vector<std::string> found, summaries;
    for (const auto& entry : std::filesystem::directory_iterator(input)) {
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

RankTable load_rank_table(const std::vector<std::string>& ranks, int device, double outlier_percent,
                          const std::atomic<bool>* cancel) {
  // One rank per core at a time: a rank's timelines are freed as soon as it is summarised.
  std::vector<RankSummary> summaries(ranks.size());
  ParallelJobs jobs;
  for (size_t i = 0; i < ranks.size(); ++i) {
    std::error_code ignored;
    const auto size =
        std::filesystem::is_regular_file(ranks[i]) ? std::filesystem::file_size(ranks[i], ignored) : 0;
    jobs.add(static_cast<size_t>(size), [&, i] {
      if (cancel && cancel->load()) return;
      summaries[i] = is_rank_summary_file(ranks[i]) ? checked_summary(ranks[i], device)
                                                    : summarise_rank(ranks[i], device);
    });
  }
  jobs.run();
  return build_rank_table(std::move(summaries), outlier_percent);
}

}  // namespace snapscope
