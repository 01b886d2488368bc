#include "app/widgets/splitter.h"

#include <imgui.h>

#include <algorithm>

namespace snapscope {

bool splitter(const char* id, SplitAxis axis, float thickness, float length, float& size, float min_size,
              float max_size, bool grows_with_drag) {
  const bool vertical = axis == SplitAxis::Vertical;
  const ImVec2 extent = vertical ? ImVec2(thickness, length) : ImVec2(length, thickness);
  const ImVec2 at = ImGui::GetCursorScreenPos();
  ImGui::InvisibleButton(id, ImVec2(std::max(extent.x, 1.0f), std::max(extent.y, 1.0f)));
  const bool active = ImGui::IsItemActive();
  const bool hovered = ImGui::IsItemHovered();
  if (active || hovered)
    ImGui::SetMouseCursor(vertical ? ImGuiMouseCursor_ResizeEW : ImGuiMouseCursor_ResizeNS);
  if (active) {
    const ImVec2 delta = ImGui::GetIO().MouseDelta;
    const float moved = vertical ? delta.x : delta.y;
    size = std::clamp(size + (grows_with_drag ? moved : -moved), min_size, std::max(min_size, max_size));
  }
  const ImU32 color = ImGui::GetColorU32(active    ? ImGuiCol_SeparatorActive
                                         : hovered ? ImGuiCol_SeparatorHovered
                                                   : ImGuiCol_Separator);
  const ImVec2 mid = vertical ? ImVec2(at.x + thickness / 2, at.y) : ImVec2(at.x, at.y + thickness / 2);
  const ImVec2 end = vertical ? ImVec2(mid.x, at.y + length) : ImVec2(at.x + length, mid.y);
  ImGui::GetWindowDrawList()->AddLine(mid, end, color, active || hovered ? 3.0f : 1.0f);
  return active;
}

}  // namespace snapscope
