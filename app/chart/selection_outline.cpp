#include "app/chart/selection_outline.h"

#include <imgui.h>

#include <algorithm>

#include "app/widgets/theme.h"

namespace snapscope {
namespace {}  // namespace

bool SelectionOutline::draw(const Timeline& timeline, uint32_t elem, const ViewTransform& view, float chart_x,
                            float chart_y, unsigned color) {
  if (timeline_ != &timeline || elem_ != elem) {
    timeline_ = &timeline;
    elem_ = elem;
    bottom_.clear();
    const size_t end = std::min(timeline.free_state(elem), timeline.action_count());
    const bool live = timeline.ever_live(elem);
    if (live && end - timeline.alloc_state(elem) <= kMaxLifetimeActions) bottom_ = timeline.polygon(elem);
  }
  if (bottom_.empty()) return false;
  const auto size_px = static_cast<float>(static_cast<double>(timeline.element(elem).size) /
                                          view.visible().height() * view.viewport_height());
  const float tall = std::max(size_px, kMinHeightPx);
  // Bottom edge left to right (only the vertices in view, plus one either side), then the top
  // edge back; vertices within a pixel of each other merge, keeping the lowest point.
  const double left = view.to_data_x(0), right = view.to_data_x(view.viewport_width());
  auto first = std::lower_bound(bottom_.begin(), bottom_.end(), left, [](const auto& vertex, double x) {
    return static_cast<double>(vertex.first) < x;
  });
  if (first != bottom_.begin()) --first;
  std::vector<ImVec2> lower;
  float anchor_x = 0;
  for (auto it = first; it != bottom_.end(); ++it) {
    const ImVec2 at(chart_x + static_cast<float>(view.to_screen_x(static_cast<double>(it->first))),
                    chart_y + static_cast<float>(view.to_screen_y(static_cast<double>(it->second))));
    if (lower.size() > 1 && at.x - anchor_x < 1.0f) {
      lower.back() = ImVec2(at.x, std::max(lower.back().y, at.y));
    } else {
      lower.push_back(at);
      anchor_x = at.x;
    }
    if (static_cast<double>(it->first) > right) break;
  }
  std::vector<ImVec2> outline(lower);
  const float centre_shift = (tall - size_px) / 2;  // a thin allocation grows around its middle
  for (ImVec2& point : outline) point.y += centre_shift;
  for (auto it = lower.rbegin(); it != lower.rend(); ++it)
    outline.emplace_back(it->x, it->y + centre_shift - tall);
  ImDrawList* draw_list = ImGui::GetWindowDrawList();
  const auto count = static_cast<int>(outline.size());
  draw_list->AddPolyline(outline.data(), count, theme::kHalo, ImDrawFlags_Closed, 4.0f);
  draw_list->AddPolyline(outline.data(), count, color, ImDrawFlags_Closed, 2.0f);
  return true;
}

}  // namespace snapscope
