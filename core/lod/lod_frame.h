// The level-of-detail result for one view: the instances to draw plus what picking needs to
// answer consistently with the drawing.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "core/lod/chart_instance.h"
#include "core/lod/chart_view.h"
#include "core/timeline/private_pool_layout.h"
#include "core/timeline/time_warp.h"

namespace snapscope {

enum class LodMode : uint8_t {
  Columns,  // a timestep is under a pixel wide: each pixel column shows its peak state
  Steps,    // a timestep is at least a pixel wide: memory_viz's exact shapes, ramps included
};

// Columns mode: the state drawn in one pixel column.
struct ColumnSample {
  uint32_t state = kNoIndex;  // kNoIndex: the column lies outside the timeline
  uint64_t total = 0;         // total memory in that state = max memory inside the column
};

struct LodFrame {
  ChartView view;
  std::shared_ptr<const TimeWarp> warp;  // view.x is in its axis units; null: timesteps
  // The private pools view this frame shows (always Columns mode); null: the timeline's own.
  std::shared_ptr<const PrivatePoolLayout> pools;
  LodMode mode = LodMode::Columns;
  // Rectangles of pixel rows, each painted by one allocation (row_sampler.h); none overlap.
  std::vector<ChartInstance> instances;
  std::vector<ColumnSample> columns;  // Columns mode only, one per pixel column
  // Optional CPU raster of the instances (key_raster.h): one colour key per pixel, bottom row
  // first. Renderers may upload it instead of drawing the instances; empty when not made.
  std::vector<uint32_t> key_image;
};

}  // namespace snapscope
