// The analysis pane's Categories tab: the cursor's live memory grouped by category (parameter,
// gradient, optimizer state, ...), with each category's count and its largest location.
#pragma once

#include "core/cursor/cursor_analysis.h"
#include "core/session/session.h"

namespace snapscope {

void draw_category_table(Session& state, const CursorAnalysis* shown);

}  // namespace snapscope
