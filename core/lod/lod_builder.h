// Level of detail for the stacked timeline: turns a view into at most one instance per pixel
// column and visible row, whatever the size of the trace.
//
//  - Every pixel row whose centre lies under the total is painted by the allocation covering that
//    centre (RowSampler), however thin: what drawing every memory_viz polygon without
//    anti-aliasing gives, and exactly what picking answers. Runs of columns where an allocation
//    covers the same rows merge into one rectangle.
//  - Columns mode (a step narrower than a pixel, or any time-linear view): each pixel column
//    shows the state with the highest total inside it (MemoryPyramid), so peaks are never hidden.
//  - Steps mode (a step at least a pixel wide): memory_viz's states, and the 3-step ramps where
//    allocations above a free slide down sampled at each pixel column's centre.
// Work per view: per drawn column, the rows above the lowest stack position whose liveness
// changed since the previous column, one Fenwick descent per allocation met (x log n); never a
// pass over the whole trace.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "core/lod/instance_collector.h"
#include "core/lod/lod_frame.h"
#include "core/lod/pool_stack_cursor.h"
#include "core/lod/row_sampler.h"
#include "core/lod/run_tracker.h"
#include "core/lod/stack_cursor.h"
#include "core/lod/state_delta_index.h"
#include "core/timeline/memory_pyramid.h"
#include "core/timeline/timeline.h"

namespace snapscope {

class LodBuilder {
 public:
  // `pyramid` (optional) is the timeline's MemoryPyramid when one is already built.
  explicit LodBuilder(const Timeline& timeline, std::shared_ptr<const MemoryPyramid> pyramid = nullptr);

  // Draws memory_viz's "Allocated Memory (incl. Private Pools)" view of the same timeline
  // instead (null: the timeline's own). Its frames are always in Columns mode: the view has no
  // ramps. `pyramid`: the one over the view's totals, when already built (else built here).
  void set_private_pools(std::shared_ptr<const PrivatePoolLayout> pools,
                         std::shared_ptr<const MemoryPyramid> pyramid = nullptr);
  // Per-element colour keys (e.g. by allocation site); empty restores the default.
  void set_color_keys(std::vector<uint32_t> keys) { color_keys_ = std::move(keys); }
  // Not const: reuses its stack cursor between views. One builder per thread.
  // With a warp, view.x0/x1 are in its axis (wall-clock time) and so are the instances: each pixel
  // column shows the peak state among the timesteps of its stretch of time.
  LodFrame build(const ChartView& view, std::shared_ptr<const TimeWarp> warp = nullptr);

  const Timeline& timeline() const { return timeline_; }
  const MemoryPyramid& pyramid() const { return *pyramid_; }
  size_t memory_bytes() const;

 private:
  struct ColumnSpan {
    double x0 = 0, x1 = 0;        // view units
    double step0 = 0, step1 = 0;  // timesteps
  };
  ColumnSpan column_span(size_t c) const;
  static MemoryExtent span_extent(const MemoryPyramid& pyramid, const ColumnSpan& span);
  void build_columns(LodFrame& frame, InstanceCollector& out);
  void build_steps(InstanceCollector& out);
  void build_pool_columns(LodFrame& frame, InstanceCollector& out);
  // The pixel rows of the pool cursor's state, bottom to top, as pieces sorted by sort key.
  void sample_pool_column(std::vector<RunPiece>& pieces) const;
  // Draws the cursor's state from x on: the rows re-sampled from stack position `dirty_from` up
  // (kNoIndex: nothing changed since the last call, every run continues).
  void add_state(double x, uint32_t dirty_from, RunTracker& runs);
  // Free action `action`'s ramp over [x0, x1): cursor is at the state before the free. Each pixel
  // column whose centre lies inside re-samples the rows above the freed allocation with the slide
  // at that centre; returns the freed stack position.
  uint32_t add_ramp(size_t action, double x0, double x1, RunTracker& runs);

  const Timeline& timeline_;
  std::shared_ptr<const MemoryPyramid> pyramid_;
  StateDeltaIndex deltas_;
  StackCursor cursor_;
  std::vector<uint32_t> color_keys_;
  RowSampler sampler_{timeline_, color_keys_};
  std::vector<RunPiece> fresh_;  // scratch for add_state
  std::shared_ptr<const PrivatePoolLayout> pools_;
  std::shared_ptr<const MemoryPyramid> pool_pyramid_;
  std::optional<PoolStackCursor> pool_cursor_;
  ChartView view_;
  std::shared_ptr<const TimeWarp> warp_;
};

}  // namespace snapscope
