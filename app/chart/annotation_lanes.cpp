#include "app/chart/annotation_lanes.h"

#include <algorithm>
#include <functional>
#include <string>

#include "app/panels/phase_panel.h"
#include "app/widgets/location_text.h"
#include "app/widgets/theme.h"
#include "core/cursor/time_cursor.h"
#include "core/util/chart_palette.h"

namespace snapscope {
namespace {

constexpr uint32_t kMaxLanes = 4;      // deeper ranges share the last lane
constexpr float kNarrowPixels = 3;     // narrower bars are painted per pixel column, not one by one
constexpr float kLabelMargin = 3;      // between a label and its bar's edges
constexpr float kMinLabelPixels = 24;  // narrower room gets no label (the tooltip names it)

// One colour per annotation name, from the chart's palette, slightly see-through.
ImU32 lane_color(const std::string& name) {
  const Rgba& rgba = kDefaultPalette[std::hash<std::string>{}(name) % kDefaultPalette.size()];
  return theme::to_imgui(rgba, theme::kLaneAlpha);
}

}  // namespace

float AnnotationLanes::height(uint32_t depth_levels) {
  if (depth_levels == 0) return 0;
  return static_cast<float>(std::min(depth_levels, kMaxLanes)) * theme::kLaneHeight + 2;
}

// Bars narrower than a few pixels land in per-lane pixel columns (last one wins), emitted as
// runs: with tens of thousands of phases the lanes cost at most a few rectangles per column.
void AnnotationLanes::layout(const Session& session, const PhaseTable& table, float chart_width) {
  const Timeline& timeline = *session.timeline();
  bars_.clear();
  columns_ = static_cast<size_t>(std::max(1.0f, chart_width));
  narrow_rows_.assign(kMaxLanes * columns_, nullptr);
  std::vector<ImU32> narrow_colors(kMaxLanes * columns_, 0);
  cache_row_x(timeline, table);
  for (size_t i = 0; i < table.rows.size(); ++i) {
    const PhaseRow& row = table.rows[i];
    const auto left = static_cast<float>(session.view.to_screen_x(row_x_[i].first));
    const auto right = static_cast<float>(session.view.to_screen_x(row_x_[i].second));
    if (right < 0 || left > chart_width) continue;  // outside the view
    const uint32_t lane = std::min(row.depth, kMaxLanes - 1);
    const float top = static_cast<float>(lane) * theme::kLaneHeight;
    const ImVec2 a(left, top + 1), b(std::max(right, left + 2), top + theme::kLaneHeight - 1);
    if (b.x - a.x >= kNarrowPixels) {
      bars_.push_back({a, b, lane_color(row.name), &row});
      continue;
    }
    const auto last_column = static_cast<float>(columns_ - 1);
    const auto first = static_cast<size_t>(std::clamp(a.x, 0.0f, last_column));
    const auto last = static_cast<size_t>(std::clamp(b.x - 1, 0.0f, last_column));
    for (size_t c = first; c <= last; ++c) {
      narrow_colors[lane * columns_ + c] = lane_color(row.name);
      narrow_rows_[lane * columns_ + c] = &row;
    }
  }
  for (uint32_t lane = 0; lane < kMaxLanes; ++lane) {
    const ImU32* colors = narrow_colors.data() + lane * columns_;
    const float top = static_cast<float>(lane) * theme::kLaneHeight;
    for (size_t c = 0; c < columns_;) {
      size_t end = c + 1;
      while (end < columns_ && colors[end] == colors[c]) ++end;
      if (colors[c] != 0) {
        bars_.push_back({ImVec2(static_cast<float>(c), top + 1),
                         ImVec2(static_cast<float>(end), top + theme::kLaneHeight - 1), colors[c], nullptr});
      }
      c = end;
    }
  }
}

void AnnotationLanes::cache_row_x(const Timeline& timeline, const PhaseTable& table) {
  if (row_x_timeline_ == &timeline && row_x_.size() == table.rows.size()) return;
  row_x_.clear();
  row_x_.reserve(table.rows.size());
  for (const PhaseRow& row : table.rows)
    row_x_.emplace_back(state_x(timeline, row.start_state), state_x(timeline, row.end_state));
  row_x_timeline_ = &timeline;
}

const PhaseRow* AnnotationLanes::row_at(float x, float y) const {
  for (const Bar& bar : bars_) {
    if (bar.row != nullptr && x >= bar.a.x && x <= bar.b.x && y >= bar.a.y && y <= bar.b.y) return bar.row;
  }
  const auto lane = static_cast<size_t>(std::max(0.0f, y) / theme::kLaneHeight);
  if (x < 0 || lane >= kMaxLanes || static_cast<size_t>(x) >= columns_) return nullptr;
  return narrow_rows_[lane * columns_ + static_cast<size_t>(x)];
}

void AnnotationLanes::draw_labels(ImDrawList* draw_list, ImVec2 origin, float chart_x, float chart_width) {
  label_rects_.clear();
  std::vector<float> lane_end(kMaxLanes, -1e30f);  // right edge of each lane's last label
  const float text_height = ImGui::GetTextLineHeight();
  for (const Bar& bar : bars_) {
    if (bar.row == nullptr) continue;
    // Inside the bar's visible part, with a margin on both sides.
    const float left = std::max(bar.a.x, 0.0f) + kLabelMargin;
    const float right = std::min(bar.b.x, chart_width) - kLabelMargin;
    const auto lane = static_cast<size_t>(bar.a.y / theme::kLaneHeight);
    if (right - left < kMinLabelPixels || lane >= kMaxLanes || left < lane_end[lane]) continue;
    const std::string shown = elide_back(bar.row->name, right - left);
    if (shown.empty()) continue;
    const float width = ImGui::CalcTextSize(shown.c_str()).x;
    const LabelRect rect{chart_x + left, origin.y + bar.a.y, chart_x + left + width,
                         origin.y + bar.a.y + text_height};
    draw_list->AddText(ImVec2(rect.x0, rect.y0), theme::kLaneText, shown.c_str());
    label_rects_.push_back(rect);
    lane_end[lane] = left + width + kLabelMargin;
  }
}

void AnnotationLanes::draw(Session& session, const PhaseTable& table, float lanes_height, float chart_x,
                           float chart_width) {
  const Timeline* timeline = session.timeline();
  if (lanes_height == 0 || timeline == nullptr) return;
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  ImGui::SetCursorScreenPos(ImVec2(chart_x, origin.y));
  ImGui::InvisibleButton("annotation-lanes", ImVec2(chart_width, lanes_height));
  const bool clicked = ImGui::IsItemClicked();
  const DataRect& visible = session.view.visible();
  const Key wanted{table.rows.data(), table.rows.size(),
                   timeline,          visible.x0,
                   visible.x1,        session.view.viewport_width(),
                   chart_width,       session.view.warp().get()};
  if (!laid_out_ || !(key_ == wanted)) {
    if (key_.rows != wanted.rows || key_.count != wanted.count) row_x_timeline_ = nullptr;  // read again
    key_ = wanted;
    layout(session, table, chart_width);
    laid_out_ = true;
  }
  ImDrawList* draw_list = ImGui::GetWindowDrawList();
  draw_list->PushClipRect(ImVec2(chart_x, origin.y), ImVec2(chart_x + chart_width, origin.y + lanes_height),
                          true);
  for (const Bar& bar : bars_) {
    const ImVec2 a(chart_x + bar.a.x, origin.y + bar.a.y), b(chart_x + bar.b.x, origin.y + bar.b.y);
    draw_list->AddRectFilled(a, b, bar.color, bar.row != nullptr ? 3.0f : 0.0f);
  }
  draw_labels(draw_list, origin, chart_x, chart_width);
  draw_list->PopClipRect();
  if (ImGui::IsItemHovered()) {
    const ImVec2 mouse = ImGui::GetIO().MousePos;
    if (const PhaseRow* hit = row_at(mouse.x - chart_x, mouse.y - origin.y)) {
      ImGui::SetTooltip("%s\nclick: zoom to it, cursor to its peak", hit->name.c_str());
      if (clicked) select_phase(session, *hit);
    }
  }
  ImGui::SetCursorScreenPos(ImVec2(origin.x, origin.y + lanes_height));
}

}  // namespace snapscope
