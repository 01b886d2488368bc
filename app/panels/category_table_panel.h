// The analysis pane's Categories tab: the cursor's live memory grouped by category (parameter,
// gradient, optimizer state, ...), with each category's count and its largest location.
#pragma once

#include "app/panels/pane_tab.h"
#include "core/cursor/cursor_analysis.h"
#include "core/session/session.h"

namespace snapscope {

void draw_category_table(Session& session, const CursorAnalysis* shown);

class CategoryTablePanel final : public PaneTab {
 public:
  void draw(TabFrame& frame) override { draw_category_table(frame.session, frame.shown); }
};

}  // namespace snapscope
