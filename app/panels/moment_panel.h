// "What holds memory at this moment": the moment table at the cursor (core/analysis), one row
// per allocating source location, with a one-click jump to the peak and copy as text or CSV.
// Clicking a row outlines its allocations on the chart.
#pragma once

#include <cstdint>
#include <optional>

#include "app/panels/pane_tab.h"
#include "core/cursor/cursor_analysis.h"
#include "core/session/session.h"

namespace snapscope {

class MomentPanel final : public PaneTab {
 public:
  void draw(TabFrame& frame) override {
    draw(frame.session, frame.shown, frame.generation, frame.options.location_rule);
  }
  // `rule` is the shared choice of which frame names a location (toggle in the toolbar).
  void draw(Session& session, const CursorAnalysis* analysis, uint64_t generation, LocationRule& rule);
  void reset() override { selected_.reset(); }

 private:
  void draw_toolbar(Session& session, const MomentTable& table, LocationRule& rule);
  void draw_rows(Session& session, const CursorAnalysis& analysis);
  void select(Session& session, const CursorAnalysis& analysis, LocationId location);
  // Each row's category: the one holding most of its bytes, "+N" when N others share the row.
  void refresh_categories(const Session& session, const CursorAnalysis& analysis);

  std::optional<std::string> selected_;  // by label: location ids change with every analysis
  uint64_t generation_ = 0;
  std::optional<uint64_t> categorised_;  // the analysis generation row_categories_ was computed for
  const SessionCategories* categorised_with_ = nullptr;
  std::vector<std::string> row_categories_;  // parallel to the moment table's rows
};

}  // namespace snapscope
