// The mapping between data space (x: memory_viz timesteps, y: bytes) and a viewport in pixels,
// with the pan / zoom / fit operations the timeline and the minimap share.
// Pixel y grows downwards; data y grows upwards (bytes = 0 at the bottom edge).
// With a TimeWarp, x stays in timesteps but the screen is linear in the warp's axis (wall-clock
// time): to_screen_x / to_data_x, pan and zoom go through it, so callers that place steps on
// screen or read steps off it need no change.
#pragma once

#include <memory>
#include <vector>

#include "core/timeline/time_warp.h"

namespace snapscope {

struct DataRect {
  double x0 = 0, x1 = 1;  // timesteps
  double y0 = 0, y1 = 1;  // bytes
  double width() const { return x1 - x0; }
  double height() const { return y1 - y0; }
  bool operator==(const DataRect&) const = default;
};

class ViewTransform {
 public:
  // Smallest visible spans: closer than this the picture only repeats one pixel.
  static constexpr double kMinSpanX = 1.0 / 64;
  static constexpr double kMinSpanY = 16.0;

  void set_viewport(double width_px, double height_px);
  // The data extent; views are kept inside it (a view larger than it is centred on it).
  void set_bounds(const DataRect& bounds);
  const DataRect& bounds() const { return bounds_; }
  const DataRect& visible() const { return visible_; }
  double viewport_width() const { return width_px_; }
  double viewport_height() const { return height_px_; }

  // The axis the screen is linear in: null (timesteps) or a wall-clock warp of the timeline.
  void set_warp(std::shared_ptr<const TimeWarp> warp);
  const std::shared_ptr<const TimeWarp>& warp() const { return warp_; }
  double axis_x(double x) const { return warp_ ? warp_->axis_at(x) : x; }
  double step_x(double axis) const { return warp_ ? warp_->step_at(axis) : axis; }
  // The visible rectangle with x in axis units (what the screen is linear in).
  DataRect visible_axis() const {
    return {axis_x(visible_.x0), axis_x(visible_.x1), visible_.y0, visible_.y1};
  }
  // The timesteps at `columns` + 1 equally spaced screen positions, left to right.
  std::vector<double> column_edges(int columns) const;

  double to_screen_x(double x) const;
  double to_screen_y(double y) const;
  double to_data_x(double px) const;
  double to_data_y(double py) const;

  void set_visible(const DataRect& rect);  // clamped
  void fit() { set_visible(bounds_); }
  void pan_pixels(double dx_px, double dy_px);
  // Centres x on a timestep, keeping the visible width in the screen's axis (steps, or time).
  void centre_x_on(double x);  // content follows the mouse: positive dx shows earlier x
  // factor > 1 zooms in, keeping the data under pixel `px` (or `py`) fixed.
  void zoom_x_at(double px, double factor);
  void zoom_y_at(double py, double factor);
  // The rectangle between two pixel corners (any order) becomes the visible area.
  void zoom_to_pixels(double ax, double ay, double bx, double by);

 private:
  static void clamp_axis(double& lo, double& hi, double bound_lo, double bound_hi, double min_span);
  // Shows axis range [u0, u1] (shifted, not shrunk, back inside the bounds).
  void set_visible_axis_x(double u0, double u1);

  double width_px_ = 1, height_px_ = 1;
  DataRect bounds_;
  DataRect visible_;
  std::shared_ptr<const TimeWarp> warp_;
};

}  // namespace snapscope
