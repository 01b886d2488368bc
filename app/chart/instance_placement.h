// Where a chart instance lands on screen. Instances are in data units (x in the view's axis:
// timesteps or wall-clock time) relative to the origin of
// the view they were built for, which may lag behind the view shown while a newer frame builds
// on the worker (the cached image is then shifted and scaled the same way).
#pragma once

#include "core/lod/chart_instance.h"
#include "core/lod/chart_view.h"
#include "core/view/view_transform.h"

namespace snapscope {

struct InstancePlacement {
  float chart_x = 0, chart_bottom = 0;  // screen position of the chart's bottom-left corner
  float px_per_step = 1, px_per_byte = 1;
  float shift_x = 0, shift_y = 0;  // built view origin minus shown view origin, in data units

  InstancePlacement(float x, float bottom, const ViewTransform& view, const ChartView& built)
      : chart_x(x),
        chart_bottom(bottom),
        px_per_step(static_cast<float>(view.viewport_width() / view.visible_axis().width())),
        px_per_byte(static_cast<float>(view.viewport_height() / view.visible().height())),
        shift_x(static_cast<float>(built.x0 - view.visible_axis().x0)),
        shift_y(static_cast<float>(built.y0 - view.visible().y0)) {}

  float x(float data_x) const { return chart_x + (data_x + shift_x) * px_per_step; }
  float y(float data_y) const { return chart_bottom - (data_y + shift_y) * px_per_byte; }
};

}  // namespace snapscope
