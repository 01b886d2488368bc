// The level-of-detail result for one view: the instances to draw plus what picking needs to
// answer consistently with the drawing.
#pragma once

#include <cstdint>
#include <vector>

#include "core/lod/chart_instance.h"
#include "core/lod/chart_view.h"

namespace snapscope {

enum class LodMode : uint8_t {
  Columns,  // a timestep is under a pixel wide: each pixel column shows its peak state
  Steps,    // a timestep is at least a pixel wide: memory_viz's exact shapes, ramps included
};

// Columns mode: the state drawn in one pixel column.
struct ColumnSample {
  uint32_t state = kNoIndex;      // kNoIndex: the column lies outside the timeline
  uint64_t total = 0;             // total memory in that state = max memory inside the column
  uint64_t aggregated_bytes = 0;  // bytes of the live allocations under one pixel tall
};

struct LodFrame {
  ChartView view;
  LodMode mode = LodMode::Columns;
  uint64_t big_threshold = 1;  // allocations of at least this many bytes are drawn on their own
  // Aggregated fill first (drawn underneath), then the individual allocations.
  std::vector<ChartInstance> instances;
  size_t aggregate_count = 0;
  std::vector<ColumnSample> columns;  // Columns mode only, one per pixel column
  // Optional CPU raster of the instances (key_raster.h): one colour key per pixel, bottom row
  // first. Renderers may upload it instead of drawing the instances; empty when not made.
  std::vector<uint32_t> key_image;
};

}  // namespace snapscope
