// "What holds memory at this moment": the moment table at the cursor (core/analysis), one row
// per allocating source location, with a one-click jump to the peak and copy as text or CSV.
// Clicking a row outlines its allocations on the chart.
#pragma once

#include <cstdint>
#include <optional>

#include "core/cursor/cursor_analysis.h"
#include "core/session/session.h"

namespace snapscope {

class MomentPanel {
 public:
  // `rule` is the shared choice of which frame names a location (toggle in the toolbar).
  void draw(Session& state, const CursorAnalysis* analysis, uint64_t generation, LocationRule& rule);
  void reset() { selected_.reset(); }

 private:
  void draw_toolbar(Session& state, const MomentTable& table, LocationRule& rule);
  void draw_rows(Session& state, const CursorAnalysis& analysis);
  void select(Session& state, const CursorAnalysis& analysis, LocationId location);

  std::optional<std::string> selected_;  // by label: location ids change with every analysis
  uint64_t generation_ = 0;
};

}  // namespace snapscope
