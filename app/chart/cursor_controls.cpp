#include "app/chart/cursor_controls.h"

#include <GLFW/glfw3.h>
#include <imgui.h>

#include <algorithm>
#include <string>
#include <vector>

#include "app/chart/instance_placement.h"
#include "app/widgets/theme.h"
#include "core/cursor/cursor_readout.h"
#include "core/util/format.h"

namespace snapscope {
namespace {

constexpr size_t kMaxOutlines = 20000;  // beyond this the outlines are a solid smear anyway

void outline_marked(const ChartLayer& layer, const ViewTransform& view, const ElementMarks& marks,
                    ImU32 color, float x, float y, float height) {
  if (marks.empty()) return;
  ImDrawList* draw_list = ImGui::GetWindowDrawList();
  const InstancePlacement place(x, y + height, view, layer.frame_view());
  size_t drawn = 0;
  for (const ChartInstance& shape : layer.instances()) {
    if (!marks.contains(shape.elem)) continue;
    if (++drawn > kMaxOutlines) break;
    const float left = place.x(shape.x0), right = place.x(shape.x1);
    const float bottom0 = place.y(shape.bottom0), bottom1 = place.y(shape.bottom1);
    const float tall = std::max(1.0f, shape.height * place.px_per_byte);
    const ImVec2 corners[4] = {ImVec2(left, bottom0), ImVec2(right, bottom1), ImVec2(right, bottom1 - tall),
                               ImVec2(left, bottom0 - tall)};
    draw_list->AddPolyline(corners, 4, color, ImDrawFlags_Closed, 1.5f);
  }
}

// Where matches were allocated, as ticks along the chart's bottom edge: visible even where an
// allocation is too thin to cover a pixel row's centre.
void draw_match_rug(const Session& session, const Timeline& timeline, float x, float y, float width,
                    float height) {
  const ElementMarks& marks = session.highlights.search;
  if (marks.empty()) return;
  std::vector<bool> columns(static_cast<size_t>(std::max(1.0f, width)) + 1, false);
  for (uint32_t elem : marks.elements()) {
    const double px = session.view.to_screen_x(state_x(timeline, timeline.alloc_state(elem)));
    if (px >= 0 && px <= width) columns[static_cast<size_t>(px)] = true;
  }
  ImDrawList* draw_list = ImGui::GetWindowDrawList();
  const float bottom = y + height;
  for (size_t column = 0; column < columns.size(); ++column) {
    if (!columns[column]) continue;
    const float at = x + static_cast<float>(column);
    draw_list->AddLine(ImVec2(at, bottom - 7), ImVec2(at, bottom), theme::kSearchTick);
  }
}

void move_cursor(Session& session, const Timeline& timeline, int64_t delta) {
  session.cursor.step(timeline, delta);
  keep_cursor_in_view(session);
}

}  // namespace

bool handle_cursor_keys(Session& session, bool chart_focused) {
  const Timeline* timeline = session.timeline();
  if (timeline == nullptr || ImGui::GetIO().WantTextInput || ImGui::GetIO().KeyCtrl) return false;
  const bool home = ImGui::IsKeyPressed(GLFW_KEY_HOME), end = ImGui::IsKeyPressed(GLFW_KEY_END);
  const bool peak = ImGui::IsKeyPressed(GLFW_KEY_P, false);
  if (home) session.cursor.home(*timeline);
  if (end) session.cursor.end(*timeline);
  if (peak) session.cursor_to_peak();
  if (home || end || peak) keep_cursor_in_view(session);
  if (!session.cursor.placed() || !chart_focused) return false;
  const auto step = static_cast<int64_t>(ImGui::GetIO().KeyShift ? large_step(*timeline) : 1);
  if (ImGui::IsKeyPressed(GLFW_KEY_LEFT)) move_cursor(session, *timeline, -step);
  if (ImGui::IsKeyPressed(GLFW_KEY_RIGHT)) move_cursor(session, *timeline, step);
  return true;
}

void keep_cursor_in_view(Session& session) {
  const Timeline* timeline = session.timeline();
  if (timeline == nullptr || !session.cursor.placed()) return;
  const double x = state_x(*timeline, session.cursor.state());
  const DataRect& visible = session.view.visible();
  if (x >= visible.x0 && x <= visible.x1) return;
  session.view.centre_x_on(x);
}

void draw_cursor_overlay(const Session& session, const ChartLayer& layer, float x, float y, float width,
                         float height) {
  ImDrawList* draw_list = ImGui::GetWindowDrawList();
  draw_list->PushClipRect(ImVec2(x, y), ImVec2(x + width, y + height), true);
  outline_marked(layer, session.view, session.highlights.search, theme::kSearchTick, x, y, height);
  outline_marked(layer, session.view, session.highlights.group, theme::kGroupTick, x, y, height);
  if (session.timeline() != nullptr) draw_match_rug(session, *session.timeline(), x, y, width, height);
  if (session.cursor.placed() && session.timeline() != nullptr) {
    const double data_x = state_x(*session.timeline(), session.cursor.state());
    const float line_x = x + static_cast<float>(session.view.to_screen_x(data_x));
    draw_list->AddLine(ImVec2(line_x, y), ImVec2(line_x, y + height), theme::kCursor, 1.5f);
    draw_list->AddTriangleFilled(ImVec2(line_x - 5, y), ImVec2(line_x + 5, y), ImVec2(line_x, y + 7),
                                 theme::kCursor);
  }
  draw_list->PopClipRect();
}

void draw_cursor_status(const Session& session) {
  const DeviceDocument* device = session.device();
  if (device == nullptr || !session.cursor.placed()) {
    ImGui::TextDisabled("click empty chart space to place the time cursor");
    return;
  }
  const CursorReadout readout =
      read_cursor(*session.timeline(), device->blocks, device->reserved, session.cursor.state());
  std::string text =
      "cursor: event " + (readout.event < 0 ? std::string("start") : "#" + std::to_string(readout.event));
  if (readout.elapsed_us) text += "  t=+" + format_duration_us(static_cast<double>(*readout.elapsed_us));
  text += "  allocated " + format_bytes(static_cast<double>(readout.allocated_bytes));
  text += "  reserved " + format_bytes(static_cast<double>(readout.reserved_bytes));
  ImGui::TextUnformatted(text.c_str());
}

}  // namespace snapscope
