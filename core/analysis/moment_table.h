// "What holds memory at this moment": the live allocations of one state grouped by the
// source location that allocated them, largest first. Rows sum exactly to the live bytes.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "core/analysis/live_elements.h"
#include "core/analysis/source_location.h"

namespace snapscope {

struct MomentRow {
  LocationId location = kUntracedLocation;
  std::string label;  // "file:line (function)" or kUntracedLabel; ends in kCompiledSuffix if compiled
  uint64_t bytes = 0;
  uint64_t cumulative = 0;   // this row plus every row above it
  uint64_t median_size = 0;  // mean of the two middle sizes for an even count, rounded down
  uint64_t count = 0;
  bool compiled = false;       // made by torch.compile's generated code called from this line
  std::string compiled_frame;  // that generated frame, for a tooltip; empty for eager code
};

struct MomentTable {
  size_t state = 0;
  uint64_t live_bytes = 0;
  std::vector<MomentRow> rows;  // bytes descending, then label ascending
};

MomentTable build_moment_table(std::span<const LiveElement> live, LocationIndex& locations, size_t state);
// The same table grouped by any key (a category, ...): group_of(element) -> key (kept in
// MomentRow::location), label_of(key) -> the row's label.
MomentTable build_grouped_table(std::span<const LiveElement> live,
                                const std::function<uint32_t(const LiveElement&)>& group_of,
                                const std::function<std::string(uint32_t)>& label_of, size_t state);

struct GroupNames {
  std::string title = "Location";    // the label column's header
  std::string plural = "locations";  // "(N more locations)"
};

// "Mem  Cumulative  Median  Count  Location" in human units; top_n > 0 keeps that many rows and
// folds the rest into one "(N more locations)" row so the column still adds up.
std::string moment_table_text(const MomentTable& table, size_t top_n = 0, const GroupNames& group = {});
// Exact byte counts, one row per location, with a header.
// `label_column`: the last column's header ("location", or "category" for a table by category).
std::string moment_table_csv(const MomentTable& table, std::string_view label_column = "location");

}  // namespace snapscope
