#include "core/view/view_transform.h"

#include <algorithm>

namespace snapscope {

void ViewTransform::set_viewport(double width_px, double height_px) {
  width_px_ = std::max(1.0, width_px);
  height_px_ = std::max(1.0, height_px);
}

void ViewTransform::set_bounds(const DataRect& bounds) {
  bounds_ = bounds;
  // A degenerate extent (empty trace) still needs a drawable area.
  if (bounds_.width() < kMinSpanX) bounds_.x1 = bounds_.x0 + 1;
  if (bounds_.height() < kMinSpanY) bounds_.y1 = bounds_.y0 + 1024;
  set_visible(visible_);
}

void ViewTransform::set_warp(std::shared_ptr<const TimeWarp> warp) { warp_ = std::move(warp); }

std::vector<double> ViewTransform::column_edges(int columns) const {
  std::vector<double> edges(static_cast<size_t>(std::max(columns, 0)) + 1);
  for (size_t c = 0; c < edges.size(); ++c) {
    edges[c] = to_data_x(width_px_ * static_cast<double>(c) / std::max(columns, 1));
  }
  return edges;
}

double ViewTransform::to_screen_x(double x) const {
  if (!warp_) return (x - visible_.x0) / visible_.width() * width_px_;
  const double u0 = axis_x(visible_.x0), u1 = axis_x(visible_.x1);
  return (axis_x(x) - u0) / (u1 - u0) * width_px_;
}

double ViewTransform::to_screen_y(double y) const {
  return (1.0 - (y - visible_.y0) / visible_.height()) * height_px_;
}

double ViewTransform::to_data_x(double px) const {
  if (!warp_) return visible_.x0 + px / width_px_ * visible_.width();
  const double u0 = axis_x(visible_.x0), u1 = axis_x(visible_.x1);
  return step_x(u0 + px / width_px_ * (u1 - u0));
}

double ViewTransform::to_data_y(double py) const {
  return visible_.y0 + (1.0 - py / height_px_) * visible_.height();
}

void ViewTransform::clamp_axis(double& lo, double& hi, double bound_lo, double bound_hi, double min_span) {
  if (hi < lo) std::swap(lo, hi);
  double span = std::clamp(hi - lo, min_span, bound_hi - bound_lo);
  const double centre = (lo + hi) / 2;
  lo = centre - span / 2;
  // Shift (not shrink) back inside the bounds so zoom level survives panning into an edge.
  lo = std::clamp(lo, bound_lo, bound_hi - span);
  hi = lo + span;
}

void ViewTransform::set_visible(const DataRect& rect) {
  visible_ = rect;
  clamp_axis(visible_.x0, visible_.x1, bounds_.x0, bounds_.x1, kMinSpanX);
  clamp_axis(visible_.y0, visible_.y1, bounds_.y0, bounds_.y1, kMinSpanY);
}

void ViewTransform::set_visible_axis_x(double u0, double u1) {
  const double lo = axis_x(bounds_.x0), hi = axis_x(bounds_.x1);
  const double span = std::min(u1 - u0, hi - lo);
  u0 = std::clamp(u0, lo, hi - span);
  DataRect next = visible_;
  next.x0 = step_x(u0);
  next.x1 = step_x(u0 + span);
  set_visible(next);
}

void ViewTransform::pan_pixels(double dx_px, double dy_px) {
  const double dy = dy_px / height_px_ * visible_.height();
  if (warp_) {
    const DataRect axis = visible_axis();
    const double du = dx_px / width_px_ * axis.width();
    set_visible({visible_.x0, visible_.x1, visible_.y0 + dy, visible_.y1 + dy});
    set_visible_axis_x(axis.x0 - du, axis.x1 - du);
    return;
  }
  const double dx = dx_px / width_px_ * visible_.width();
  set_visible({visible_.x0 - dx, visible_.x1 - dx, visible_.y0 + dy, visible_.y1 + dy});
}

void ViewTransform::centre_x_on(double x) {
  const DataRect axis = visible_axis();
  const double centre = axis_x(x);
  if (warp_) {
    set_visible_axis_x(centre - axis.width() / 2, centre + axis.width() / 2);
  } else {
    set_visible({x - axis.width() / 2, x + axis.width() / 2, visible_.y0, visible_.y1});
  }
}

void ViewTransform::zoom_x_at(double px, double factor) {
  if (warp_) {
    const DataRect axis = visible_axis();
    const double anchor = axis.x0 + px / width_px_ * axis.width();
    const double span = axis.width() / factor;
    const double u0 = anchor - px / width_px_ * span;
    set_visible_axis_x(u0, u0 + span);
    return;
  }
  const double anchor = to_data_x(px);
  const double span = std::max(visible_.width() / factor, kMinSpanX);
  const double fraction = px / width_px_;
  DataRect next = visible_;
  next.x0 = anchor - fraction * span;
  next.x1 = next.x0 + span;
  set_visible(next);
}

void ViewTransform::zoom_y_at(double py, double factor) {
  const double anchor = to_data_y(py);
  const double span = std::max(visible_.height() / factor, kMinSpanY);
  const double fraction_from_bottom = 1.0 - py / height_px_;
  DataRect next = visible_;
  next.y0 = anchor - fraction_from_bottom * span;
  next.y1 = next.y0 + span;
  set_visible(next);
}

void ViewTransform::zoom_to_pixels(double ax, double ay, double bx, double by) {
  set_visible({to_data_x(std::min(ax, bx)), to_data_x(std::max(ax, bx)), to_data_y(std::max(ay, by)),
               to_data_y(std::min(ay, by))});
}

}  // namespace snapscope
