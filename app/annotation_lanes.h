// external_annotations ranges as labelled bars above the chart, aligned with its x axis; nested
// ranges go on separate lanes (by depth). Clicking a bar selects that phase (phase_panel.h).
#pragma once

#include "app/app_state.h"
#include "core/analysis/phase_table.h"

namespace snapscope {

// Height the lanes need (0 when there is nothing to draw).
float annotation_lanes_height(const PhaseTable& table);
// Draws at the current cursor position; x and width are the chart's, in window pixels.
void draw_annotation_lanes(AppState& state, const PhaseTable& table, float chart_x, float chart_width);

}  // namespace snapscope
