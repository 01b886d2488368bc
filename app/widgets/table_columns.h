// Widths of the fixed numeric columns in the analysis tables, measured from the text they hold,
// so the stretching location column gets the rest of a narrow pane.
#pragma once

#include <imgui.h>

#include <algorithm>

namespace snapscope {

// Width of a fixed column whose widest cell looks like `widest` (or its header, if wider).
inline float fit_column_width(const char* header, const char* widest) {
  const float text = std::max(ImGui::CalcTextSize(header).x, ImGui::CalcTextSize(widest).x);
  return text + 2 * ImGui::GetStyle().CellPadding.x;
}

}  // namespace snapscope
