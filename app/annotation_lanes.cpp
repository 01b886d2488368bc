#include "app/annotation_lanes.h"

#include <imgui.h>

#include <algorithm>
#include <functional>
#include <string>

#include "app/phase_panel.h"
#include "core/cursor/time_cursor.h"
#include "render/chart_palette.h"

namespace snapscope {
namespace {

constexpr float kLaneHeight = 16;
constexpr uint32_t kMaxLanes = 4;  // deeper ranges share the last lane

uint32_t lane_count(const PhaseTable& table) {
  uint32_t deepest = 0;
  for (const PhaseRow& row : table.rows) deepest = std::max(deepest, row.depth);
  return std::min(deepest + 1, kMaxLanes);
}

// One colour per annotation name, from the chart's palette, slightly see-through.
ImU32 lane_color(const std::string& name) {
  const Rgba& rgba = kDefaultPalette[std::hash<std::string>{}(name) % kDefaultPalette.size()];
  return ImGui::ColorConvertFloat4ToU32(ImVec4(rgba.r, rgba.g, rgba.b, 0.75f));
}

}  // namespace

float annotation_lanes_height(const PhaseTable& table) {
  if (!table.has_times || table.rows.empty()) return 0;
  return static_cast<float>(lane_count(table)) * kLaneHeight + 2;
}

void draw_annotation_lanes(AppState& state, const PhaseTable& table, float chart_x, float chart_width) {
  const float height = annotation_lanes_height(table);
  const Timeline* timeline = state.timeline();
  if (height == 0 || timeline == nullptr) return;
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  ImGui::SetCursorScreenPos(ImVec2(chart_x, origin.y));
  ImGui::InvisibleButton("annotation-lanes", ImVec2(chart_width, height));
  const bool clicked = ImGui::IsItemClicked();
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  ImDrawList* draw_list = ImGui::GetWindowDrawList();
  draw_list->PushClipRect(ImVec2(chart_x, origin.y), ImVec2(chart_x + chart_width, origin.y + height), true);
  const PhaseRow* hit = nullptr;
  for (const PhaseRow& row : table.rows) {
    const float left =
        chart_x + static_cast<float>(state.view.to_screen_x(state_x(*timeline, row.start_state)));
    const float right =
        chart_x + static_cast<float>(state.view.to_screen_x(state_x(*timeline, row.end_state)));
    if (right < chart_x || left > chart_x + chart_width) continue;  // outside the view
    const float top = origin.y + static_cast<float>(std::min(row.depth, kMaxLanes - 1)) * kLaneHeight;
    const ImVec2 a(left, top + 1), b(std::max(right, left + 2), top + kLaneHeight - 1);
    const ImU32 color = lane_color(row.name);
    draw_list->AddRectFilled(a, b, color, 3);
    if (b.x - a.x > 24)
      draw_list->AddText(ImVec2(a.x + 4, a.y + 1), IM_COL32(255, 255, 255, 255), row.name.c_str());
    if (mouse.x >= a.x && mouse.x <= b.x && mouse.y >= a.y && mouse.y <= b.y) hit = &row;
  }
  draw_list->PopClipRect();
  if (hit != nullptr && ImGui::IsItemHovered()) {
    ImGui::SetTooltip("%s\nclick: zoom to it, cursor to its peak", hit->name.c_str());
    if (clicked) select_phase(state, *hit);
  }
  ImGui::SetCursorScreenPos(ImVec2(origin.x, origin.y + height));
}

}  // namespace snapscope
