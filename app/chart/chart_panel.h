// The main chart: axes, the chart texture, and mouse/keyboard navigation (time zoom fits y to the
// totals in view unless switched off), hover tooltip and selection.
#pragma once

#include <optional>

#include "app/chart/chart_layer.h"
#include "app/chart/selection_outline.h"
#include "core/session/session.h"

struct ImVec2;

namespace snapscope {

class ChartPanel {
 public:
  static constexpr float kAxisLeft = 84;    // room for byte labels
  static constexpr float kAxisBottom = 22;  // room for step / time labels

  // Draws inside the current ImGui window, filling `size`. Returns true when a re-stream happened.
  bool draw(Session& session, float width, float height);
  // A click at a window pixel, as the script's `click X Y` (same path as a real click).
  void click_at(Session& session, double window_x, double window_y);
  // Headless runs ignore the OS pointer (it rests wherever the display put it); a script's
  // `hover X Y` places a pointer at a window pixel instead, kept until the next hover.
  void set_os_pointer(bool follow) { os_pointer_ = follow; }
  void hover_at(double window_x, double window_y) { scripted_pointer_ = {window_x, window_y}; }
  ChartLayer& layer() { return layer_; }
  const ChartLayer& layer() const { return layer_; }
  // Last chart rectangle in window pixels.
  float chart_x() const { return chart_x_; }
  size_t note_markers() const { return note_markers_; }  // annotate markers drawn last frame
  float chart_y() const { return chart_y_; }
  float chart_width() const { return chart_w_; }
  float chart_height() const { return chart_h_; }

 private:
  void handle_keys(Session& session);
  void handle_mouse(Session& session);
  void draw_axes(const Session& session) const;
  void draw_highlights(const Session& session);
  void draw_tooltip(Session& session) const;
  void draw_pool_tooltip(Session& session) const;
  void update_hover(Session& session, bool item_hovered);
  void apply_y_fit(Session& session) const;
  void draw_outline(const ViewTransform& view, uint32_t elem, unsigned color, float thickness) const;

  ChartLayer layer_;
  SelectionOutline selection_outline_;
  bool os_pointer_ = true;
  std::optional<std::pair<double, double>> scripted_pointer_;
  std::optional<std::pair<double, double>> hover_pointer_;  // window pixel of the hover, if any
  PickResult hovered_pool_;
  size_t note_markers_ =
      0;  // drawn in the last frame  // a private pool's inactive memory under the pointer (PoolInactive)
  float chart_x_ = 0, chart_y_ = 0, chart_w_ = 1, chart_h_ = 1;
  std::optional<std::pair<double, double>> box_start_;
  bool dragged_ = false;  // the current press moved: its release pans, it does not select
};

}  // namespace snapscope
