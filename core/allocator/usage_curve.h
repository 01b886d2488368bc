// Reserved memory and fragmentation (1 - allocated / reserved) per pixel column of the chart,
// from the block timeline's O(1) totals and the ReservedSeries: a column costs a few binary
// searches and one max query, so a whole view is O(columns log n) whatever the trace length.
#pragma once

#include <cstdint>
#include <vector>

#include "core/timeline/reserved_series.h"
#include "core/timeline/timeline.h"

namespace snapscope {

struct UsageColumn {
  bool valid = false;         // false outside the trace
  uint64_t reserved_max = 0;  // highest reserved total inside the column
  uint64_t reserved = 0;      // at the column's last event
  uint64_t allocated = 0;     // at the column's last event
  double fragmentation = 0;   // 1 - allocated / reserved at the column's last event (0 when nothing reserved)
};

// Fragmentation at one point: 1 - allocated / reserved, clamped to [0, 1].
double fragmentation_ratio(uint64_t allocated, uint64_t reserved);

class UsageCurve {
 public:
  // The block timeline and reserved series of one device; they must outlive the curve.
  UsageCurve(const Timeline& blocks, const ReservedSeries& reserved);

  // One column per pair of neighbouring edges (timesteps of `shown`, one of the two timelines,
  // increasing; ViewTransform::column_edges gives the screen's).
  std::vector<UsageColumn> columns(const Timeline& shown, const std::vector<double>& edges) const;
  // `width` equal columns over timesteps [x0, x1).
  std::vector<UsageColumn> columns(const Timeline& shown, double x0, double x1, int width) const;
  // Allocated (block timeline) and reserved (ReservedSeries) right after raw event `event`.
  uint64_t allocated_after(int64_t event) const;
  uint64_t reserved_after(int64_t event) const;

 private:
  UsageColumn column(const Timeline& shown, uint64_t first_step, uint64_t last_step) const;

  const Timeline& blocks_;
  const ReservedSeries& reserved_;
};

}  // namespace snapscope
