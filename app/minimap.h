// Overview strip under the chart: total allocated (block timeline) and reserved (segment
// timeline) memory over the whole trace, with the visible window drawn on top. Dragging in it
// moves the view.
#pragma once

#include <memory>
#include <vector>

#include "core/session/session.h"
#include "core/timeline/memory_pyramid.h"

namespace snapscope {

class Minimap {
 public:
  void draw(Session& state, float x_offset, float width, float height);
  void reset() { device_ = nullptr; }  // the document changed: pointers may be reused

 private:
  void rebuild(const DeviceDocument& device, int columns);

  const DeviceDocument* device_ = nullptr;
  std::shared_ptr<const MemoryPyramid> allocated_, reserved_;
  int columns_ = 0;
  std::vector<MemoryExtent> allocated_columns_, reserved_columns_;
  double top_bytes_ = 1;
};

}  // namespace snapscope
