// "What grew": two moment tables (A and B, e.g. the peaks of a run before and after a change)
// joined by location label. Each row holds a location's bytes and allocation count in A, in B,
// and B - A; locations only in B are new, only in A vanished. Rows are sorted by |delta|, largest
// first, then by size, then by label, and their deltas sum exactly to live(B) - live(A).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/analysis/moment_table.h"

namespace snapscope {

enum class DiffStatus { Both, New, Vanished };
const char* diff_status_name(DiffStatus status);  // "", "new", "vanished"

struct DiffRow {
  std::string location;
  uint64_t bytes_a = 0, bytes_b = 0;
  uint64_t count_a = 0, count_b = 0;
  DiffStatus status = DiffStatus::Both;
  int64_t delta() const { return static_cast<int64_t>(bytes_b) - static_cast<int64_t>(bytes_a); }
};

struct MomentDiff {
  uint64_t live_a = 0, live_b = 0;
  std::vector<DiffRow> rows;
  int64_t delta() const { return static_cast<int64_t>(live_b) - static_cast<int64_t>(live_a); }
};

MomentDiff diff_moments(const MomentTable& a, const MomentTable& b);

// B relative to A in per cent; growth from nothing counts as +100 % (0 when both are 0).
double growth_percent(uint64_t a, uint64_t b);

// "Delta  A  B  Count A  Count B  Location" in human units; top_n > 0 keeps that many rows and
// folds the rest into one "(N more locations)" row so the delta column still adds up.
std::string moment_diff_text(const MomentDiff& diff, size_t top_n = 0, const GroupNames& group = {});

// CSV of diff tables, exact bytes: the header, then each table's rows with its grouping name
// ("location", "category") in the first column.
inline constexpr std::string_view kMomentDiffCsvHeader =
    "grouping,label,bytes_a,bytes_b,delta,count_a,count_b,status\n";
std::string moment_diff_csv_rows(const MomentDiff& diff, std::string_view grouping);

}  // namespace snapscope
