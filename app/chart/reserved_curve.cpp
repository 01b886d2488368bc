#include "app/chart/reserved_curve.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>

#include "app/chart/strip_legend.h"
#include "app/widgets/theme.h"
#include "core/allocator/event_text.h"
#include "core/analysis/state_mapping.h"
#include "core/cursor/time_cursor.h"
#include "core/util/format.h"

namespace snapscope {
namespace {

constexpr float kOomHoverPixels = 4;

}  // namespace

void ReservedCurve::update(const UsageCurve& usage, const Timeline& timeline,
                           const std::vector<double>& edges) {
  if (&timeline == timeline_ && edges == edges_) return;
  timeline_ = &timeline;
  edges_ = edges;
  columns_ = usage.columns(timeline, edges);
  top_ = 1;
  for (const UsageColumn& column : columns_) top_ = std::max(top_, column.reserved_max);
}

void ReservedCurve::draw(const Session& session, const UsageCurve& usage, const Timeline& timeline,
                         float x_offset, float width, float height) {
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const float left = origin.x + x_offset;
  const int columns = std::max(1, static_cast<int>(width));
  ViewTransform strip = session.view;  // the chart's x range over the strip's width
  strip.set_viewport(columns, strip.viewport_height());
  update(usage, timeline, strip.column_edges(columns));
  ImDrawList* draw_list = ImGui::GetWindowDrawList();
  const float bottom = origin.y + height;
  const auto y_of = [&](uint64_t bytes) {
    return bottom - static_cast<float>(static_cast<double>(bytes) / static_cast<double>(top_)) * (height - 2);
  };
  for (int c = 0; c < columns; ++c) {
    const UsageColumn& column = columns_[static_cast<size_t>(c)];
    if (!column.valid) continue;
    const float x = left + static_cast<float>(c);
    draw_list->AddRectFilled(ImVec2(x, y_of(column.reserved_max)), ImVec2(x + 1, bottom),
                             theme::kStripReservedFill);
    draw_list->AddRectFilled(ImVec2(x, y_of(column.allocated)), ImVec2(x + 1, y_of(column.allocated) + 1.5f),
                             theme::kStripAllocatedLine);
    const float fragmentation_y = bottom - static_cast<float>(column.fragmentation) * (height - 2);
    draw_list->AddRectFilled(ImVec2(x, fragmentation_y - 0.75f), ImVec2(x + 1, fragmentation_y + 0.75f),
                             theme::kStripFragmentationLine);
  }
  if (session.cursor.placed()) {
    const float cursor_x =
        left + static_cast<float>(session.view.to_screen_x(state_x(timeline, session.cursor.state())));
    if (cursor_x >= left && cursor_x <= left + width)
      draw_list->AddLine(ImVec2(cursor_x, origin.y), ImVec2(cursor_x, bottom), theme::kStripCursor);
  }
  draw_list->AddRect(ImVec2(left, origin.y), ImVec2(left + width, bottom), theme::kStripFrame);
  const LegendEntry key[] = {
      {theme::kStripReservedFill, "reserved (max " + format_bytes(static_cast<double>(top_)) + ")"},
      {theme::kStripAllocatedLine, "allocated"},
      {theme::kStripFragmentationLine, "fragmentation (0..100%)"}};
  draw_strip_legend(draw_list, ImVec2(left + 2, origin.y + 2), key, width - 4);
  ImGui::SetCursorScreenPos(ImVec2(left, origin.y));
  ImGui::InvisibleButton("usage-strip", ImVec2(std::max(1.0f, width), std::max(1.0f, height)));
  if (ImGui::IsItemHovered()) draw_tooltip(left, width);
}

void ReservedCurve::draw_tooltip(float x, float width) const {
  const float mouse = ImGui::GetIO().MousePos.x - x;
  if (mouse < 0 || mouse >= width || columns_.empty()) return;
  const UsageColumn& column = columns_[std::min(columns_.size() - 1, static_cast<size_t>(mouse))];
  if (!column.valid) return;
  ImGui::BeginTooltip();
  ImGui::Text("reserved %s (column max %s)", format_bytes(static_cast<double>(column.reserved)).c_str(),
              format_bytes(static_cast<double>(column.reserved_max)).c_str());
  ImGui::Text("allocated %s", format_bytes(static_cast<double>(column.allocated)).c_str());
  ImGui::Text("fragmentation %.1f%% (1 - allocated / reserved)", column.fragmentation * 100);
  ImGui::EndTooltip();
}

void draw_oom_lines(const Session& session, const Timeline& timeline, const std::vector<OomEvent>& ooms,
                    float x, float y, float width, float height) {
  ImDrawList* draw_list = ImGui::GetWindowDrawList();
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  for (const OomEvent& oom : ooms) {
    const size_t oom_state = state_after_event(timeline, static_cast<int64_t>(oom.event));
    const float line_x = x + static_cast<float>(session.view.to_screen_x(state_x(timeline, oom_state)));
    if (line_x < x || line_x > x + width) continue;
    draw_list->AddLine(ImVec2(line_x, y), ImVec2(line_x, y + height), theme::kStripOom, 2.0f);
    draw_list->AddTriangleFilled(ImVec2(line_x - 5, y), ImVec2(line_x + 5, y), ImVec2(line_x, y + 8),
                                 theme::kStripOom);
    if (std::fabs(mouse.x - line_x) <= kOomHoverPixels && mouse.y >= y && mouse.y <= y + height) {
      ImGui::BeginTooltip();
      ImGui::Text("OOM at event #%zu", oom.event);
      ImGui::Text("requested %s", memviz_size(oom.requested).c_str());
      ImGui::Text("device has %s memory free", memviz_size(oom.device_free).c_str());
      ImGui::EndTooltip();
    }
  }
}

}  // namespace snapscope
