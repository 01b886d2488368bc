// The chart image of one timeline view: level-of-detail instances from core/lod, built on a
// worker thread (LodWorker) and drawn by the render library into a cached texture. While a newer
// view builds, the cached image is shown shifted and scaled to the view (like a map), and picking
// answers from what is on screen; the new image replaces it as soon as it is ready.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "core/lod/chart_instance.h"
#include "core/lod/chart_view.h"
#include "core/lod/lod_pick.h"
#include "core/util/chart_palette.h"
#include "core/view/view_transform.h"

namespace snapscope {

class Timeline;
class MemoryPyramid;
class PrivatePoolLayout;

class ChartLayer {
 public:
  ChartLayer();
  ~ChartLayer();
  ChartLayer(const ChartLayer&) = delete;
  ChartLayer& operator=(const ChartLayer&) = delete;

  // Requests the view from the worker when it changed, and draws a finished frame into the
  // texture; true when it did (a "re-stream").
  // `pyramid` (optional): the timeline's already built MemoryPyramid, shared with the builder.
  // `pools` (optional): show the timeline's private pools view instead, `pool_pyramid` over its
  // totals.
  bool update(const Timeline& timeline, const ViewTransform& view,
              std::shared_ptr<const MemoryPyramid> pyramid = nullptr,
              std::shared_ptr<const PrivatePoolLayout> pools = nullptr,
              std::shared_ptr<const MemoryPyramid> pool_pyramid = nullptr);
  void reset();  // drop everything (document closed or replaced); waits for a running build
  // Has the GL driver compile the chart's drawing while a document loads (ChartRenderer::
  // warm_up), and ImGui's compositing of it, with an invisible image in the current frame. Once.
  void warm_up();
  // Runs on the worker thread whenever a frame is ready (wakes an event loop that sleeps).
  void set_frame_ready_callback(std::function<void()> callback);

  // True when the image shown is the one built for the last view update() saw: no build running
  // or pending and no transformed placeholder on screen.
  bool settled() const;
  bool frame_waiting() const;   // a finished frame is ready for the next update()
  void wait_for_build() const;  // blocks until the worker has nothing to build
  // Milliseconds from requesting a view to drawing its frame, for each frame drawn since the
  // last call (views superseded before they were built are not counted).
  std::vector<double> take_restream_latencies();
  // Views asked of the worker since the last reset(): a document laid out once asks 1 for its
  // first frame, one whose lanes or panels moved the chart after its first request asks more.
  size_t views_requested() const;

  // Adds the chart to the current ImGui window's draw list over the given screen rectangle.
  void paint(float x, float y, float width, float height) const;
  // Element under a viewport pixel (x right, y down), as drawn; aggregated fill is not pickable.
  std::optional<uint32_t> pick(double px, double py) const;
  // What is drawn there: an allocation, a private pool's inactive memory, or nothing.
  PickResult pick_result(double px, double py) const;
  // Instances of one element in the current frame (to outline the selection). Their coordinates
  // are relative to frame_view(), which lags behind the view while a newer frame builds.
  std::vector<ChartInstance> instances_of(uint32_t elem) const;
  size_t instance_count() const;
  // Every instance of the current frame (overlays that mark many elements at once).
  const std::vector<ChartInstance>& instances() const;
  const ChartView& frame_view() const;
  // Per-element color keys (allocation sites); empty restores memory_viz's per-element colors.
  // Per-element palette indices (empty: memory_viz's own colours) and the palette they index
  // (empty: the default one).
  void set_color_keys(std::vector<uint32_t> keys, std::vector<Rgba> palette = {});

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace snapscope
