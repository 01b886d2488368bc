#include "app/minimap.h"

#include <imgui.h>

#include <algorithm>

#include "app/theme.h"

namespace snapscope {
namespace {

std::vector<MemoryExtent> columns_of(const MemoryPyramid& pyramid, const Timeline& timeline, int columns) {
  if (timeline.timesteps() == 0) return {};
  return pyramid.columns(0, static_cast<double>(timeline.timesteps()), columns);
}

}  // namespace

void Minimap::rebuild(const DeviceDocument& device, int columns) {
  if (device_ != &device) {
    allocated_ = device.pyramid(TimelineKind::Blocks);
    reserved_ = device.pyramid(TimelineKind::Segments);
    device_ = &device;
    columns_ = 0;
  }
  if (columns_ == columns) return;
  columns_ = columns;
  allocated_columns_ = columns_of(*allocated_, device.blocks, columns);
  reserved_columns_ = columns_of(*reserved_, device.segments, columns);
  top_bytes_ =
      static_cast<double>(std::max({device.blocks.peak_bytes(), device.segments.peak_bytes(), uint64_t{1}}));
}

void Minimap::draw(Session& state, float x_offset, float width, float height) {
  const DeviceDocument* device = state.device();
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const float x = origin.x + x_offset;
  ImGui::SetCursorScreenPos(ImVec2(x, origin.y));
  ImGui::InvisibleButton("minimap", ImVec2(std::max(width, 1.0f), std::max(height, 1.0f)));
  if (device == nullptr || width < 2) return;
  rebuild(*device, static_cast<int>(width));

  ImDrawList* draw_list = ImGui::GetWindowDrawList();
  const float bottom = origin.y + height;
  const auto bar = [&](const std::vector<MemoryExtent>& columns, ImU32 color) {
    for (size_t i = 0; i < columns.size(); ++i) {
      const auto fraction = static_cast<float>(static_cast<double>(columns[i].max_bytes) / top_bytes_);
      const float left = x + static_cast<float>(i);
      draw_list->AddRectFilled(ImVec2(left, bottom - fraction * height), ImVec2(left + 1, bottom), color);
    }
  };
  draw_list->AddRectFilled(ImVec2(x, origin.y), ImVec2(x + width, bottom), theme::kMinimapBackground);
  bar(reserved_columns_, theme::kMinimapReserved);
  bar(allocated_columns_, theme::kMinimapAllocated);

  // The visible window, in fractions of the shown timeline.
  const DataRect& bounds = state.view.bounds();
  const DataRect& visible = state.view.visible();
  const auto to_x = [&](double step) {
    return x + static_cast<float>((step - bounds.x0) / bounds.width()) * width;
  };
  const float window_left = to_x(visible.x0);
  const float window_right = std::max(to_x(visible.x1), window_left + 2);
  draw_list->AddRectFilled(ImVec2(window_left, origin.y), ImVec2(window_right, bottom),
                           theme::kMinimapWindow);
  draw_list->AddRect(ImVec2(window_left, origin.y), ImVec2(window_right, bottom),
                     theme::kMinimapWindowBorder);
  draw_list->AddText(ImVec2(x + 4, origin.y + 2), theme::kMinimapAllocated, "allocated");
  draw_list->AddText(ImVec2(x + 84, origin.y + 2), theme::kMinimapReserved, "reserved");

  // Press or drag: centre the window on the mouse, keeping its width.
  if (ImGui::IsItemActive()) {
    const double mouse_step =
        bounds.x0 + (ImGui::GetIO().MousePos.x - x) / static_cast<double>(width) * bounds.width();
    const double half = visible.width() / 2;
    state.view.set_visible({mouse_step - half, mouse_step + half, visible.y0, visible.y1});
  }
}

}  // namespace snapscope
