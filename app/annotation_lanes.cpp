#include "app/annotation_lanes.h"

#include <imgui.h>

#include <algorithm>
#include <functional>
#include <string>
#include <vector>

#include "app/phase_panel.h"
#include "core/cursor/time_cursor.h"
#include "render/chart_palette.h"

namespace snapscope {
namespace {

constexpr float kLaneHeight = 16;
constexpr uint32_t kMaxLanes = 4;   // deeper ranges share the last lane
constexpr float kNarrowPixels = 3;  // narrower bars are painted per pixel column, not one by one

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

namespace {

// Bars narrower than a few pixels land in per-lane pixel columns (last one wins), drawn as runs:
// with tens of thousands of phases the lanes then cost at most a few rectangles per column.
class NarrowColumns {
 public:
  NarrowColumns(float chart_x, float chart_width)
      : x_(chart_x),
        width_(static_cast<size_t>(std::max(1.0f, chart_width))),
        colors_(kMaxLanes * width_, 0) {}
  void add(uint32_t lane, float left, float right, ImU32 color) {
    const auto first = static_cast<size_t>(std::clamp(left - x_, 0.0f, static_cast<float>(width_ - 1)));
    const auto last = static_cast<size_t>(std::clamp(right - x_, 0.0f, static_cast<float>(width_ - 1)));
    for (size_t c = first; c <= last; ++c) colors_[lane * width_ + c] = color;
  }
  void draw(ImDrawList* draw_list, float top) const {
    for (uint32_t lane = 0; lane < kMaxLanes; ++lane) {
      const ImU32* row = colors_.data() + lane * width_;
      const float lane_top = top + static_cast<float>(lane) * kLaneHeight;
      for (size_t c = 0; c < width_;) {
        size_t end = c + 1;
        while (end < width_ && row[end] == row[c]) ++end;
        if (row[c] != 0) {
          draw_list->AddRectFilled(ImVec2(x_ + static_cast<float>(c), lane_top + 1),
                                   ImVec2(x_ + static_cast<float>(end), lane_top + kLaneHeight - 1), row[c]);
        }
        c = end;
      }
    }
  }

 private:
  float x_;
  size_t width_;
  std::vector<ImU32> colors_;
};

}  // namespace

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
  NarrowColumns narrow(chart_x, chart_width);
  const PhaseRow* hit = nullptr;
  for (const PhaseRow& row : table.rows) {
    const float left =
        chart_x + static_cast<float>(state.view.to_screen_x(state_x(*timeline, row.start_state)));
    const float right =
        chart_x + static_cast<float>(state.view.to_screen_x(state_x(*timeline, row.end_state)));
    if (right < chart_x || left > chart_x + chart_width) continue;  // outside the view
    const uint32_t lane = std::min(row.depth, kMaxLanes - 1);
    const float top = origin.y + static_cast<float>(lane) * kLaneHeight;
    const ImVec2 a(left, top + 1), b(std::max(right, left + 2), top + kLaneHeight - 1);
    if (mouse.x >= a.x && mouse.x <= b.x && mouse.y >= a.y && mouse.y <= b.y) hit = &row;
    if (b.x - a.x < kNarrowPixels) {
      narrow.add(lane, a.x, b.x - 1, lane_color(row.name));
      continue;
    }
    draw_list->AddRectFilled(a, b, lane_color(row.name), 3);
    if (b.x - a.x > 24)
      draw_list->AddText(ImVec2(a.x + 4, a.y + 1), IM_COL32(255, 255, 255, 255), row.name.c_str());
  }
  narrow.draw(draw_list, origin.y);
  draw_list->PopClipRect();
  if (hit != nullptr && ImGui::IsItemHovered()) {
    ImGui::SetTooltip("%s\nclick: zoom to it, cursor to its peak", hit->name.c_str());
    if (clicked) select_phase(state, *hit);
  }
  ImGui::SetCursorScreenPos(ImVec2(origin.x, origin.y + height));
}

}  // namespace snapscope
