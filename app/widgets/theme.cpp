#include "app/widgets/theme.h"

#include <imgui.h>

namespace snapscope::theme {

ImU32 to_imgui(const Rgba& color) { return to_imgui(color, color.a); }

ImU32 to_imgui(const Rgba& color, float alpha) {
  return ImGui::ColorConvertFloat4ToU32(ImVec4(color.r, color.g, color.b, alpha));
}

ImU32 from_rgb(uint32_t rgb) { return IM_COL32(rgb >> 16, (rgb >> 8) & 0xff, rgb & 0xff, 255); }

void color_swatch(const Rgba& color) {
  const ImVec2 at = ImGui::GetCursorScreenPos();
  const float side = ImGui::GetTextLineHeight();
  ImGui::GetWindowDrawList()->AddRectFilled(at, ImVec2(at.x + side, at.y + side), to_imgui(color, 1));
  ImGui::Dummy(ImVec2(side, side));
}

}  // namespace snapscope::theme
