#include "app/chart/minimap.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>

#include "app/chart/strip_legend.h"
#include "app/widgets/theme.h"
#include "core/allocator/usage_curve.h"

namespace snapscope {
namespace {

// The peak of each of `columns` equal stretches of the timeline: of its steps, or of its time.
std::vector<MemoryExtent> columns_of(const MemoryPyramid& pyramid, const Timeline& timeline, int columns,
                                     const TimeWarp* warp) {
  if (timeline.timesteps() == 0) return {};
  if (warp == nullptr) return pyramid.columns(0, static_cast<double>(timeline.timesteps()), columns);
  std::vector<MemoryExtent> out(static_cast<size_t>(std::max(columns, 0)));
  const double last_step = static_cast<double>(timeline.timesteps()) - 1;
  for (size_t c = 0; c < out.size(); ++c) {
    const double left = warp->step_at(warp->axis_end() * static_cast<double>(c) / columns);
    const double right = warp->step_at(warp->axis_end() * static_cast<double>(c + 1) / columns);
    const auto first = static_cast<uint64_t>(std::min(std::floor(left), last_step));
    const auto last = static_cast<uint64_t>(std::clamp(std::ceil(right) - 1, std::floor(left), last_step));
    out[c] = pyramid.over_steps(first, last);
  }
  return out;
}

// The highest reserved bytes (the device's ReservedSeries) over the same stretches of the block
// timeline as columns_of() gives the allocated ones.
std::vector<MemoryExtent> reserved_columns_of(const DeviceDocument& device, int columns,
                                              const TimeWarp* warp) {
  const Timeline& blocks = device.blocks;
  if (blocks.timesteps() == 0 || columns <= 0) return {};
  std::vector<double> edges(static_cast<size_t>(columns) + 1);
  for (size_t c = 0; c < edges.size(); ++c) {
    const double fraction = static_cast<double>(c) / columns;
    edges[c] = warp ? warp->step_at(warp->axis_end() * fraction)
                    : static_cast<double>(blocks.timesteps()) * fraction;
  }
  const std::vector<UsageColumn> usage = UsageCurve(blocks, device.reserved).columns(blocks, edges);
  std::vector<MemoryExtent> out(usage.size());
  for (size_t c = 0; c < usage.size(); ++c) out[c].max_bytes = usage[c].reserved_max;
  return out;
}

}  // namespace

void Minimap::rebuild(Session& session, const DeviceDocument& device, int columns) {
  const bool time_axis = session.view.warp() != nullptr;
  if (device_ != &device) {
    allocated_ = device.pyramid(TimelineKind::Blocks);
    device_ = &device;
    columns_ = 0;
  }
  if (columns_ == columns && time_axis_ == time_axis) return;
  columns_ = columns;
  time_axis_ = time_axis;
  // On the time axis each timeline's columns follow its own warp: the session's, shared with the
  // chart.
  allocated_columns_ = columns_of(*allocated_, device.blocks, columns,
                                  time_axis ? session.time_warp(device.blocks).get() : nullptr);
  reserved_columns_ =
      reserved_columns_of(device, columns, time_axis ? session.time_warp(device.blocks).get() : nullptr);
  top_bytes_ =
      static_cast<double>(std::max({device.blocks.peak_bytes(), device.reserved.peak(), uint64_t{1}}));
}

void Minimap::draw(Session& session, float x_offset, float width, float height) {
  const DeviceDocument* device = session.device();
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const float x = origin.x + x_offset;
  ImGui::SetCursorScreenPos(ImVec2(x, origin.y));
  ImGui::InvisibleButton("minimap", ImVec2(std::max(width, 1.0f), std::max(height, 1.0f)));
  if (device == nullptr || width < 2) return;
  rebuild(session, *device, static_cast<int>(width));

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
  const DataRect& visible = session.view.visible();
  const auto to_x = [&](double step) { return x + static_cast<float>(fraction_at(session, step)) * width; };
  const float window_left = to_x(visible.x0);
  const float window_right = std::max(to_x(visible.x1), window_left + 2);
  draw_list->AddRectFilled(ImVec2(window_left, origin.y), ImVec2(window_right, bottom),
                           theme::kMinimapWindow);
  draw_list->AddRect(ImVec2(window_left, origin.y), ImVec2(window_right, bottom),
                     theme::kMinimapWindowBorder);
  const LegendEntry key[] = {{theme::kMinimapAllocated, "allocated"}, {theme::kMinimapReserved, "reserved"}};
  draw_strip_legend(draw_list, ImVec2(x + 2, origin.y + 2), key, width - 4);

  // Press or drag: centre the window on the mouse, keeping its width.
  if (ImGui::IsItemActive()) {
    // Centred on the mouse, as wide as it was in the chart's axis (steps, or time).
    ViewTransform& view = session.view;
    const double mouse =
        view.axis_x(step_at(session, (ImGui::GetIO().MousePos.x - x) / static_cast<double>(width)));
    const double half = (view.axis_x(visible.x1) - view.axis_x(visible.x0)) / 2;
    view.set_visible({view.step_x(mouse - half), view.step_x(mouse + half), visible.y0, visible.y1});
  }
}

double Minimap::fraction_at(const Session& session, double step) const {
  const ViewTransform& view = session.view;
  const DataRect& bounds = view.bounds();
  return (view.axis_x(step) - view.axis_x(bounds.x0)) / (view.axis_x(bounds.x1) - view.axis_x(bounds.x0));
}

double Minimap::step_at(const Session& session, double fraction) const {
  const ViewTransform& view = session.view;
  const DataRect& bounds = view.bounds();
  return view.step_x(view.axis_x(bounds.x0) + fraction * (view.axis_x(bounds.x1) - view.axis_x(bounds.x0)));
}

}  // namespace snapscope
