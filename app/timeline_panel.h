// The main chart: axes, the chart texture, and mouse/keyboard navigation, hover and selection.
#pragma once

#include <optional>

#include "app/app_state.h"
#include "app/chart_layer.h"

struct ImVec2;

namespace snapscope {

class TimelinePanel {
 public:
  static constexpr float kAxisLeft = 84;    // room for byte labels
  static constexpr float kAxisBottom = 22;  // room for step / time labels

  // Draws inside the current ImGui window, filling `size`. Returns true when a re-stream happened.
  bool draw(AppState& state, float width, float height);
  // A click at a window pixel, as the script's `click X Y` (same path as a real click).
  void click_at(AppState& state, double window_x, double window_y);
  ChartLayer& layer() { return layer_; }
  const ChartLayer& layer() const { return layer_; }
  // Last chart rectangle in window pixels.
  float chart_x() const { return chart_x_; }
  float chart_y() const { return chart_y_; }
  float chart_width() const { return chart_w_; }
  float chart_height() const { return chart_h_; }

 private:
  void handle_keys(AppState& state);
  void handle_mouse(AppState& state);
  void draw_axes(const AppState& state) const;
  void draw_highlights(const AppState& state) const;
  void draw_tooltip(const AppState& state) const;
  void draw_outline(const ViewTransform& view, uint32_t elem, unsigned color, float thickness) const;

  ChartLayer layer_;
  float chart_x_ = 0, chart_y_ = 0, chart_w_ = 1, chart_h_ = 1;
  std::optional<std::pair<double, double>> box_start_;
  bool dragged_ = false;  // the current press moved: its release pans, it does not select  // Ctrl+drag box
                          // zoom anchor (window px)
};

}  // namespace snapscope
