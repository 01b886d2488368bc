// Overview strip under the chart: total allocated (block timeline) and reserved (the device's
// ReservedSeries) memory over the whole trace, with the visible window drawn on top. Dragging in it
// moves the view. On the wall-clock axis its x is linear in time too (each timeline's own warp).
#pragma once

#include <memory>
#include <vector>

#include "core/session/session.h"
#include "core/timeline/memory_pyramid.h"

namespace snapscope {

class Minimap {
 public:
  void draw(Session& session, float x_offset, float width, float height);
  void reset() { device_ = nullptr; }  // the document changed: pointers may be reused

 private:
  void rebuild(Session& session, const DeviceDocument& device, int columns);
  // The fraction of the strip's width at timestep `step` of the shown timeline, and back.
  double fraction_at(const Session& session, double step) const;
  double step_at(const Session& session, double fraction) const;

  const DeviceDocument* device_ = nullptr;
  std::shared_ptr<const MemoryPyramid> allocated_;
  int columns_ = 0;
  bool time_axis_ = false;
  std::vector<MemoryExtent> allocated_columns_, reserved_columns_;
  double top_bytes_ = 1;
};

}  // namespace snapscope
