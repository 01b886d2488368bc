// Level of detail for the stacked timeline: turns a view into at most a few instances per pixel
// column and visible allocation, whatever the size of the trace.
//
//  - Allocations at least one pixel tall (size >= bytes per pixel) are drawn on their own;
//    smaller ones become the aggregated fill under them, so nothing is ever left out.
//  - Columns mode (a step narrower than a pixel): each pixel column shows the state with the
//    highest total inside it (MemoryPyramid), so peaks are never hidden. Vertical edges are
//    snapped to pixel rows, and runs of columns where an allocation covers the same rows merge.
//  - Steps mode (a step at least a pixel wide): memory_viz's exact shapes, including the 3-step
//    ramps where allocations above a free slide down (trapezoids).
// Work per view: per drawn column, the allocations whose liveness changed since the previous
// column plus the visible big allocations above the lowest change (x log n); never a pass over
// the whole trace.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "core/lod/instance_collector.h"
#include "core/lod/lod_frame.h"
#include "core/lod/memory_pyramid.h"
#include "core/lod/run_tracker.h"
#include "core/lod/stack_cursor.h"
#include "core/lod/state_delta_index.h"
#include "core/timeline/timeline.h"

namespace snapscope {

// Default colour key: the element index, as memory_viz colours by element; the renderer takes
// it modulo its palette so allocations made one after another always differ in colour.
inline uint32_t default_color_key(uint32_t elem) { return elem; }

class LodBuilder {
 public:
  // `pyramid` (optional) is the timeline's MemoryPyramid when one is already built.
  explicit LodBuilder(const Timeline& timeline, std::shared_ptr<const MemoryPyramid> pyramid = nullptr);

  // Per-element colour keys (e.g. by allocation site); empty restores the default.
  void set_color_keys(std::vector<uint32_t> keys) { color_keys_ = std::move(keys); }
  // Not const: reuses its stack cursor between views. One builder per thread.
  LodFrame build(const ChartView& view);

  const Timeline& timeline() const { return timeline_; }
  const MemoryPyramid& pyramid() const { return *pyramid_; }
  size_t memory_bytes() const;

 private:
  void build_columns(LodFrame& frame, InstanceCollector& out);
  void build_steps(InstanceCollector& out);
  // Draws the cursor's state from x0 to x1: the aggregated fill, and the runs of big allocations
  // re-read from stack position `dirty_from` up (kNoIndex: nothing changed since the last call).
  void add_state(double x0, double x1, uint32_t dirty_from, RunTracker& runs, InstanceCollector& out);
  // Free action `action`'s ramp over [x0, x1): cursor is at the state before the free. Ends the
  // runs above the freed allocation; returns its stack position.
  uint32_t add_ramp(size_t action, double x0, double x1, RunTracker& runs, InstanceCollector& out);
  uint32_t color_of(uint32_t elem) const;
  double snap(double bytes) const;  // to the nearest pixel row boundary (see pick_at)

  const Timeline& timeline_;
  std::shared_ptr<const MemoryPyramid> pyramid_;
  StateDeltaIndex deltas_;
  StackCursor cursor_;
  std::vector<uint32_t> color_keys_;
  std::vector<RunPiece> fresh_;  // scratch for add_state
  ChartView view_;
};

}  // namespace snapscope
