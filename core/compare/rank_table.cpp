#include "core/compare/rank_table.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "core/compare/moment_diff.h"
#include "core/util/format.h"

namespace snapscope {

RankTable build_rank_table(std::vector<RankSummary> ranks, double outlier_percent) {
  RankTable table;
  table.outlier_percent = outlier_percent;
  if (ranks.empty()) return table;
  std::vector<uint64_t> peaks;
  for (const RankSummary& rank : ranks) peaks.push_back(rank.peak_bytes);
  const auto middle = peaks.begin() + static_cast<std::ptrdiff_t>((peaks.size() - 1) / 2);
  std::nth_element(peaks.begin(), middle, peaks.end());
  table.median_peak = *middle;
  for (RankSummary& rank : ranks) {
    RankRow row;
    row.deviation_percent = growth_percent(table.median_peak, rank.peak_bytes);
    row.outlier = std::fabs(row.deviation_percent) > outlier_percent;
    row.summary = std::move(rank);
    table.rows.push_back(std::move(row));
  }
  return table;
}

std::string rank_table_text(const RankTable& table) {
  std::string text = "median peak " + format_bytes(static_cast<double>(table.median_peak)) +
                     "; outliers: more than " + std::to_string(static_cast<int>(table.outlier_percent)) +
                     " % from it (marked *)\n\n";
  text +=
      "       Peak  vs median        At   Reserved  Phase at peak / top location, top category at peak  "
      "File\n";
  for (const RankRow& row : table.rows) {
    const RankSummary& rank = row.summary;
    const std::string at = rank.peak_event < 0 ? "start" : "#" + std::to_string(rank.peak_event);
    char line[200];
    std::snprintf(line, sizeof line, "%c %9s %+9.2f%% %9s %10s  ", row.outlier ? '*' : ' ',
                  format_bytes(static_cast<double>(rank.peak_bytes)).c_str(), row.deviation_percent,
                  at.c_str(), format_bytes(static_cast<double>(rank.reserved_peak)).c_str());
    text += line + (rank.phase_at_peak.empty() ? std::string("-") : rank.phase_at_peak) + " / " +
            rank.top_location + " (" + format_bytes(static_cast<double>(rank.top_location_bytes)) + ")";
    if (!rank.top_category.empty())
      text += ", mostly " + rank.top_category + " (" +
              format_bytes(static_cast<double>(rank.top_category_bytes)) + ")";
    text += "  " + rank.file + "\n";
  }
  return text;
}

}  // namespace snapscope
