// The time cursor on the chart: keys that move it, the vertical line and element highlight
// outlines drawn over the chart, and its readout in the status bar.
#pragma once

#include "app/chart/chart_layer.h"
#include "core/session/session.h"

namespace snapscope {

// Home/End/P (jump to peak) whenever no text field is active; left/right (Shift: 1% of the
// trace) only when the cursor is placed and `chart_focused`. True when left/right went to the
// cursor, so the caller must not also pan with them.
bool handle_cursor_keys(Session& session, bool chart_focused);
// Scrolls the view horizontally so the cursor line is on screen.
void keep_cursor_in_view(Session& session);

// Cursor line, search-match and group outlines over the chart rectangle (window pixels).
void draw_cursor_overlay(const Session& session, const ChartLayer& layer, float x, float y, float width,
                         float height);

// "cursor: event #E  time  allocated A  reserved R" for the status bar (nothing when unplaced).
void draw_cursor_status(const Session& session);

}  // namespace snapscope
