// Many ranks of one job side by side: each rank's figures at its peak (peak, when, phase at the
// peak, reserved, top location) and how far its peak is from the median rank's, so the one rank
// that behaves differently (an FSDP shard that holds more, a pipeline stage that OOMs) stands out.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace snapscope {

struct RankSummary {
  // The rank summarised. In a summary file it is a name beside the file (no '/', never ".."),
  // and read_rank_summary_file turns it into that path.
  std::string file;
  // The converted directory's stamp when the summary was written (rank_set.h's
  // directory_stamp); empty in summaries written before it was recorded.
  std::string directory_stamp;
  int device = 0;
  uint64_t peak_bytes = 0;
  int64_t peak_event = -1;     // -1: before the first event
  uint64_t reserved_peak = 0;  // 0 when the snapshot has no segment information
  std::string phase_at_peak;   // innermost annotated phase holding the peak; empty: none
  std::string top_location;    // the moment table's largest row at the peak
  uint64_t top_location_bytes = 0;
  std::string top_category;  // the largest category at the peak (core/classify); empty: unknown
  uint64_t top_category_bytes = 0;
  // The total and reserved bytes over the trace, downsampled (each point the largest in its
  // stretch of the trace): the rank table's small chart. Empty when not known.
  std::vector<uint64_t> total_curve, reserved_curve;
};

// A rank's summary file (snapscope-convert --rank-summary writes OUTDIR.rank.json): the
// summary above as JSON, so a rank table of hundreds of ranks reads kilobytes per rank.
inline constexpr const char* kRankSummaryFormat = "snapscope-rank-summary/1";
inline constexpr size_t kRankCurvePoints = 256;
nlohmann::json rank_summary_json(const RankSummary& summary);
// Throws InputError("<file>: <what is wrong>") for a malformed or hostile file.
RankSummary parse_rank_summary(std::string_view text, const std::string& file);

struct RankRow {
  RankSummary summary;
  double deviation_percent = 0;  // peak relative to the median rank's peak
  bool outlier = false;          // |deviation| above the table's threshold
};

struct RankTable {
  uint64_t median_peak = 0;  // the lower median for an even count
  double outlier_percent = 0;
  std::vector<RankRow> rows;  // in the order given
};

// Rows in the order given; outliers are ranks whose peak deviates from the median by more than
// `outlier_percent` per cent.
RankTable build_rank_table(std::vector<RankSummary> ranks, double outlier_percent);

// "Rank  Peak  vs median  At  Reserved  Phase at peak  Top location" in human units.
std::string rank_table_text(const RankTable& table);

}  // namespace snapscope
