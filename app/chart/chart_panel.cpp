#include "app/chart/chart_panel.h"

#include <GLFW/glfw3.h>
#include <imgui.h>

#include <algorithm>
#include <cmath>

#include "app/chart/cursor_controls.h"
#include "app/chart/instance_placement.h"
#include "app/chart/note_markers.h"
#include "app/widgets/theme.h"
#include "core/util/chart_palette.h"
#include "core/util/format.h"
#include "core/view/axis_ticks.h"
#include "core/view/timeline_axis.h"
#include "core/view/y_fit.h"

namespace snapscope {
namespace {

constexpr double kWheelZoom = 1.25;  // per wheel notch
constexpr double kKeyPanFraction = 0.1;

std::string event_text(int64_t event) {
  return event < 0 ? std::string("before trace") : "#" + std::to_string(event);
}

}  // namespace

bool ChartPanel::draw(Session& session, float width, float height) {
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  chart_x_ = origin.x + kAxisLeft;
  chart_y_ = origin.y;
  chart_w_ = std::max(1.0f, width - kAxisLeft);
  chart_h_ = std::max(1.0f, height - kAxisBottom);
  session.view.set_viewport(std::floor(chart_w_), std::floor(chart_h_));

  const Timeline* timeline = session.timeline();
  if (timeline == nullptr) {
    ImGui::Dummy(ImVec2(width, height));
    return false;
  }
  ImGui::SetCursorScreenPos(ImVec2(chart_x_, chart_y_));
  ImGui::InvisibleButton("chart", ImVec2(chart_w_, chart_h_),
                         ImGuiButtonFlags_MouseButtonLeft | ImGuiButtonFlags_MouseButtonRight);
  handle_keys(session);
  handle_mouse(session);
  apply_y_fit(session);

  const SessionPools* pools = session.pools_shown();
  const bool restreamed =
      layer_.update(*timeline, session.view, session.device()->pyramid(session.settings.kind),
                    pools ? pools->layout : nullptr, pools ? pools->pyramid : nullptr);
  ImDrawList* draw_list = ImGui::GetWindowDrawList();
  // The texture has the viewport's whole-pixel size: composite it 1:1.
  layer_.paint(chart_x_, chart_y_, static_cast<float>(session.view.viewport_width()),
               static_cast<float>(session.view.viewport_height()));
  draw_axes(session);
  draw_highlights(session);
  note_markers_ =
      draw_note_markers(session, chart_x_, chart_y_, chart_w_, box_start_ ? std::nullopt : hover_pointer_);
  draw_cursor_overlay(session, layer_, chart_x_, chart_y_, chart_w_, chart_h_);
  if (box_start_) {
    const ImVec2 mouse = ImGui::GetIO().MousePos;
    draw_list->AddRect(ImVec2(static_cast<float>(box_start_->first), static_cast<float>(box_start_->second)),
                       mouse, theme::kZoomBox);
  }
  draw_tooltip(session);
  draw_pool_tooltip(session);
  ImGui::SetCursorScreenPos(ImVec2(origin.x, origin.y + height));
  return restreamed;
}

void ChartPanel::click_at(Session& session, double window_x, double window_y) {
  const auto elem = layer_.pick(window_x - chart_x_, window_y - chart_y_);
  session.select(elem);
  // Empty space places the time cursor there; an allocation is selected instead.
  if (!elem && session.timeline())
    session.cursor.place_at_x(*session.timeline(), session.view.to_data_x(window_x - chart_x_));
}

void ChartPanel::apply_y_fit(Session& session) const {
  const YFitSettings& fit = session.settings.y_fit;
  const Timeline* timeline = session.timeline();
  if (!fit.enabled || timeline == nullptr) return;
  const SessionPools* pools = session.pools_shown();
  const auto pyramid = pools ? pools->pyramid : session.device()->pyramid(session.settings.kind);
  DataRect fitted = snapscope::fit_y(session.view.visible(), *timeline, *pyramid, fit.raise_floor);
  fitted.y1 = std::max(fitted.y1, static_cast<double>(fit.at_least) * (1 + kYFitHeadroom));
  session.view.set_visible(fitted);
}

void ChartPanel::handle_keys(Session& session) {
  if (ImGui::GetIO().WantTextInput) return;
  const double pan_x = session.view.viewport_width() * kKeyPanFraction;
  const double pan_y = session.view.viewport_height() * kKeyPanFraction;
  // Left/right move the time cursor once it is placed and the chart has focus; A/D always pan.
  const bool arrows_to_cursor = handle_cursor_keys(session, ImGui::IsWindowFocused());
  if ((!arrows_to_cursor && ImGui::IsKeyPressed(GLFW_KEY_LEFT)) || ImGui::IsKeyPressed(GLFW_KEY_A)) {
    session.view.pan_pixels(pan_x, 0);
  }
  if ((!arrows_to_cursor && ImGui::IsKeyPressed(GLFW_KEY_RIGHT)) || ImGui::IsKeyPressed(GLFW_KEY_D)) {
    session.view.pan_pixels(-pan_x, 0);
  }
  YFitSettings& fit = session.settings.y_fit;
  const bool up = ImGui::IsKeyPressed(GLFW_KEY_UP) || ImGui::IsKeyPressed(GLFW_KEY_W);
  const bool down = ImGui::IsKeyPressed(GLFW_KEY_DOWN) || ImGui::IsKeyPressed(GLFW_KEY_S);
  if (up || down) fit.enabled = false;  // panning y by hand keeps y where it is put
  if (up) session.view.pan_pixels(0, pan_y);
  if (down) session.view.pan_pixels(0, -pan_y);
  const bool ctrl = ImGui::GetIO().KeyCtrl;
  if (ImGui::IsKeyPressed(GLFW_KEY_F) && !ctrl) {  // Ctrl+F: search
    session.view.fit();
    fit = YFitSettings{};
  }
  if (ImGui::IsKeyPressed(GLFW_KEY_Y) && !ctrl) fit.enabled = !fit.enabled;
  if (ImGui::IsKeyPressed(GLFW_KEY_L) && !ctrl) {
    fit.raise_floor = !fit.raise_floor;
    fit.enabled = true;
  }
}

void ChartPanel::handle_mouse(Session& session) {
  const ImGuiIO& io = ImGui::GetIO();
  const double local_x = io.MousePos.x - chart_x_;
  const double local_y = io.MousePos.y - chart_y_;
  const bool hovered = ImGui::IsItemHovered();
  update_hover(session, hovered);

  if (hovered && io.MouseWheel != 0) {
    const double factor = std::pow(kWheelZoom, io.MouseWheel);
    if (io.KeyShift) {
      session.settings.y_fit.enabled = false;
      session.view.zoom_y_at(local_y, factor);
    } else {
      session.view.zoom_x_at(local_x, factor);
    }
  }
  if (hovered && ImGui::IsMouseDoubleClicked(ImGuiMouseButton_Left)) {
    session.view.fit();
    session.settings.y_fit = YFitSettings{.at_least = session.settings.y_fit.at_least};
    return;
  }
  if (ImGui::IsItemActivated() && io.KeyCtrl) box_start_ = {io.MousePos.x, io.MousePos.y};
  if (box_start_) {
    if (!ImGui::IsMouseDown(ImGuiMouseButton_Left)) {
      const double dx = std::fabs(io.MousePos.x - box_start_->first);
      const double dy = std::fabs(io.MousePos.y - box_start_->second);
      if (dx > 3 && dy > 3) {
        session.settings.y_fit.enabled = false;  // the box's byte range is what was asked for
        session.view.zoom_to_pixels(box_start_->first - chart_x_, box_start_->second - chart_y_, local_x,
                                    local_y);
      }
      box_start_.reset();
    }
    return;
  }
  if (ImGui::IsItemActivated()) dragged_ = false;
  if (ImGui::IsItemActive() && ImGui::IsMouseDragging(ImGuiMouseButton_Left, 2.0f)) {
    dragged_ = true;
    session.view.pan_pixels(io.MouseDelta.x, session.settings.y_fit.enabled ? 0.0 : io.MouseDelta.y);
  } else if (ImGui::IsItemDeactivated() && !dragged_) {
    click_at(session, io.MousePos.x, io.MousePos.y);  // a click, not the end of a drag
  }
}

void ChartPanel::draw_axes(const Session& session) const {
  ImDrawList* draw_list = ImGui::GetWindowDrawList();
  const DataRect& visible = session.view.visible();
  const float bottom = chart_y_ + chart_h_;
  for (const Tick& tick : byte_ticks(visible.y0, visible.y1, std::max(2, static_cast<int>(chart_h_ / 60)))) {
    const float y = chart_y_ + static_cast<float>(session.view.to_screen_y(tick.value));
    draw_list->AddLine(ImVec2(chart_x_, y), ImVec2(chart_x_ + chart_w_, y), theme::kGrid);
    const ImVec2 text = ImGui::CalcTextSize(tick.label.c_str());
    draw_list->AddText(ImVec2(chart_x_ - text.x - 6, y - text.y / 2), theme::kAxis, tick.label.c_str());
  }
  const int max_x_ticks = std::max(2, static_cast<int>(chart_w_ / 110));
  for (const Tick& tick : step_axis_ticks(*session.timeline(), visible.x0, visible.x1, max_x_ticks,
                                          session.settings.time_axis, session.view.warp().get())) {
    const float x = chart_x_ + static_cast<float>(session.view.to_screen_x(tick.value));
    draw_list->AddLine(ImVec2(x, bottom), ImVec2(x, bottom + 4), theme::kAxis);
    // A label at the right edge ends there instead of running past the chart.
    const float label_width = ImGui::CalcTextSize(tick.label.c_str()).x;
    const float label_x = std::min(x + 2, chart_x_ + chart_w_ - label_width);
    draw_list->AddText(ImVec2(label_x, bottom + 3), theme::kAxis, tick.label.c_str());
  }
  draw_list->AddRect(ImVec2(chart_x_, chart_y_), ImVec2(chart_x_ + chart_w_, bottom), theme::kAxis);
}

void ChartPanel::draw_outline(const ViewTransform& view, uint32_t elem, unsigned color,
                              float thickness) const {
  ImDrawList* draw_list = ImGui::GetWindowDrawList();
  draw_list->PushClipRect(ImVec2(chart_x_, chart_y_), ImVec2(chart_x_ + chart_w_, chart_y_ + chart_h_), true);
  const InstancePlacement place(chart_x_, chart_y_ + chart_h_, view, layer_.frame_view());
  for (const ChartInstance& shape : layer_.instances_of(elem)) {
    const float left = place.x(shape.x0), right = place.x(shape.x1);
    const float bottom0 = place.y(shape.bottom0), bottom1 = place.y(shape.bottom1);
    const float height = std::max(1.0f, shape.height * place.px_per_byte);
    const ImVec2 corners[4] = {ImVec2(left, bottom0), ImVec2(right, bottom1), ImVec2(right, bottom1 - height),
                               ImVec2(left, bottom0 - height)};
    draw_list->AddPolyline(corners, 4, theme::kHalo, ImDrawFlags_Closed, thickness + 2.0f);
    draw_list->AddPolyline(corners, 4, color, ImDrawFlags_Closed, thickness);
  }
  draw_list->PopClipRect();
}

void ChartPanel::draw_highlights(const Session& session) {
  const Timeline& timeline = *session.timeline();
  if (session.hovered && session.hovered != session.selected())
    draw_outline(session.view, *session.hovered, theme::to_imgui(kHoverOutline), 1.5f);
  if (!session.selected()) return;
  ImDrawList* draw_list = ImGui::GetWindowDrawList();
  draw_list->PushClipRect(ImVec2(chart_x_, chart_y_), ImVec2(chart_x_ + chart_w_, chart_y_ + chart_h_), true);
  const bool drawn = selection_outline_.draw(timeline, *session.selected(), session.view, chart_x_, chart_y_,
                                             theme::to_imgui(kSelectionOutline));
  draw_list->PopClipRect();
  if (!drawn) draw_outline(session.view, *session.selected(), theme::to_imgui(kSelectionOutline), 2.0f);
}

void ChartPanel::update_hover(Session& session, bool item_hovered) {
  hover_pointer_.reset();
  if (scripted_pointer_) {
    hover_pointer_ = scripted_pointer_;
  } else if (os_pointer_ && item_hovered) {
    hover_pointer_ = {ImGui::GetIO().MousePos.x, ImGui::GetIO().MousePos.y};
  }
  const PickResult hit =
      hover_pointer_ ? layer_.pick_result(hover_pointer_->first - chart_x_, hover_pointer_->second - chart_y_)
                     : PickResult{};
  session.hovered = hit.kind == PickKind::Allocation ? std::optional<uint32_t>(hit.elem) : std::nullopt;
  hovered_pool_ = hit.kind == PickKind::PoolInactive ? hit : PickResult{};
}

// A private pool's inactive memory: which pool, and how much of its envelope is unused.
void ChartPanel::draw_pool_tooltip(Session& session) const {
  const SessionPools* pools = session.pools_shown();
  if (hovered_pool_.kind != PickKind::PoolInactive || !pools || !hover_pointer_ || box_start_) return;
  const PoolKey& key = pools->layout->pool(hovered_pool_.pool);
  const uint64_t envelope = pools->layout->envelope_bytes(hovered_pool_.pool, hovered_pool_.state);
  ImGui::SetNextWindowPos(ImVec2(static_cast<float>(hover_pointer_->first) + 16,
                                 static_cast<float>(hover_pointer_->second) + 16));
  ImGui::BeginTooltip();
  ImGui::Text("private pool (%lld, %lld), stream %llu", static_cast<long long>(key.pool[0]),
              static_cast<long long>(key.pool[1]), static_cast<unsigned long long>(key.stream));
  ImGui::Text("%s inactive of %s held", format_bytes(static_cast<double>(hovered_pool_.size)).c_str(),
              format_bytes(static_cast<double>(envelope)).c_str());
  ImGui::TextDisabled("the most this pool's blocks and segments ever held; it never shrinks");
  ImGui::EndTooltip();
}

// Size, where it was allocated and its lifetime, beside the pointer.
void ChartPanel::draw_tooltip(Session& session) const {
  if (!session.hovered || !hover_pointer_ || box_start_) return;
  const uint32_t elem = *session.hovered;
  const ReplayElement& element = session.timeline()->element(elem);
  ImGui::SetNextWindowPos(ImVec2(static_cast<float>(hover_pointer_->first) + 16,
                                 static_cast<float>(hover_pointer_->second) + 16));
  ImGui::BeginTooltip();
  ImGui::Text("%s (%s)", format_bytes(static_cast<double>(element.size)).c_str(),
              format_bytes_exact(element.size).c_str());
  ImGui::TextUnformatted(session.location_of(elem).c_str());
  const std::string freed =
      element.free_event < 0 ? "never freed" : "freed " + event_text(element.free_event);
  ImGui::Text("allocated %s, %s", event_text(element.alloc_event).c_str(), freed.c_str());
  if (element.alloc_event >= 0 && element.free_event >= 0) {
    ImGui::Text("lifetime %lld events", static_cast<long long>(element.free_event - element.alloc_event));
  }
  ImGui::Text("address %s", format_address(element.addr).c_str());
  ImGui::TextDisabled("click to inspect");
  ImGui::EndTooltip();
}

}  // namespace snapscope
