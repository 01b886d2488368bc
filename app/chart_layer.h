// The chart image of one timeline view: level-of-detail instances from core/lod, drawn by the
// render library into a cached texture, and picking consistent with what was drawn.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "core/lod/chart_instance.h"
#include "core/view/view_transform.h"

namespace snapscope {

class Timeline;

class ChartLayer {
 public:
  ChartLayer();
  ~ChartLayer();
  ChartLayer(const ChartLayer&) = delete;
  ChartLayer& operator=(const ChartLayer&) = delete;

  // Rebuilds instances and redraws the texture only when the timeline, view, size or colors
  // changed; true when it did (a "re-stream").
  bool update(const Timeline& timeline, const ViewTransform& view);
  void reset();  // drop everything (document closed or replaced)

  // Adds the chart to the current ImGui window's draw list over the given screen rectangle.
  void paint(float x, float y, float width, float height) const;
  // Element under a viewport pixel (x right, y down), as drawn; aggregated fill is not pickable.
  std::optional<uint32_t> pick(double px, double py) const;
  // Instances of one element in the current frame (to outline the selection).
  std::vector<ChartInstance> instances_of(uint32_t elem) const;
  size_t instance_count() const;
  // Every instance of the current frame (overlays that mark many elements at once).
  const std::vector<ChartInstance>& instances() const;
  // Per-element color keys (allocation sites); empty restores memory_viz's per-element colors.
  void set_color_keys(std::vector<uint32_t> keys);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace snapscope
