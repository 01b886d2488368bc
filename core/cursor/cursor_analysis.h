// Everything the cursor panels show about one state, computed in one pass over the live set:
// the top-down and bottom-up call trees and the moment table (core/analysis), plus each live
// allocation's source location so a table row can be highlighted on the chart.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "core/analysis/call_tree.h"
#include "core/analysis/moment_table.h"

namespace snapscope {

struct CursorAnalysis {
  CursorAnalysis(const Timeline& of, size_t at_state, bool filter_frames);

  const Timeline* timeline = nullptr;  // identifies what `state` and the element ids refer to
  size_t state = 0;
  bool filtered = true;
  LocationRule location_rule = LocationRule::FirstUserFrame;
  std::vector<LiveElement> live;
  CallTree top_down;
  CallTree bottom_up;
  MomentTable moment;
  std::vector<LocationId> live_locations;  // parallel to `live`
  double compute_ms = 0;

  // Elements of `live` grouped under one moment-table row.
  std::vector<uint32_t> elements_at_location(LocationId location) const;
};

CursorAnalysis analyze_cursor(const Timeline& timeline, size_t state, const StackSource& source,
                              bool filter_frames, LocationRule rule = LocationRule::FirstUserFrame);

}  // namespace snapscope
