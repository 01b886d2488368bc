// The mapping between data space (x: memory_viz timesteps, y: bytes) and a viewport in pixels,
// with the pan / zoom / fit operations the timeline and the minimap share.
// Pixel y grows downwards; data y grows upwards (bytes = 0 at the bottom edge).
#pragma once

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

  double to_screen_x(double x) const;
  double to_screen_y(double y) const;
  double to_data_x(double px) const;
  double to_data_y(double py) const;

  void set_visible(const DataRect& rect);  // clamped
  void fit() { set_visible(bounds_); }
  void pan_pixels(double dx_px, double dy_px);  // content follows the mouse: positive dx shows earlier x
  // factor > 1 zooms in, keeping the data under pixel `px` (or `py`) fixed.
  void zoom_x_at(double px, double factor);
  void zoom_y_at(double py, double factor);
  // The rectangle between two pixel corners (any order) becomes the visible area.
  void zoom_to_pixels(double ax, double ay, double bx, double by);

 private:
  static void clamp_axis(double& lo, double& hi, double bound_lo, double bound_hi, double min_span);

  double width_px_ = 1, height_px_ = 1;
  DataRect bounds_;
  DataRect visible_;
};

}  // namespace snapscope
