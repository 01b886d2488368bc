// Per-device headline numbers of a converted snapshot: what the convert summary prints and
// what elements.db's `devices` table stores. Pure function of the snapshot and both timelines.
#pragma once

#include <cstdint>

#include "core/snapshot/model.h"
#include "core/timeline/reserved_series.h"
#include "core/timeline/timeline.h"

namespace snapscope {

struct DeviceStats {
  int device = 0;
  uint64_t events = 0;               // raw trace events on the device
  uint64_t allocations = 0;          // block timeline elements
  uint64_t free_without_alloc = 0;   // elements freed in the trace but allocated before it
  uint64_t snapshot_blocks = 0;      // elements taken from the segment snapshot
  uint64_t peak_bytes = 0;           // block timeline peak (Timeline::peak_bytes)
  int64_t peak_event = -1;           // raw trace index of the peak action; -1 without one
  uint64_t initial_bytes = 0;        // live at state 0
  uint64_t final_bytes = 0;          // live after the last action
  uint64_t reserved_bytes = 0;       // sum of the snapshot's segment sizes on the device
  uint64_t peak_reserved_bytes = 0;  // ReservedSeries::peak (segment_map / unmap counted)
  uint64_t segment_elements = 0;     // segment timeline elements
  int64_t first_time_us = kNoTime;   // earliest / latest event time_us; kNoTime without timestamps
  int64_t last_time_us = kNoTime;

  uint64_t pre_existing() const { return free_without_alloc + snapshot_blocks; }
};

DeviceStats compute_device_stats(const Snapshot& snapshot, const Timeline& blocks, const Timeline& segments,
                                 const ReservedSeries& reserved);

// The same in two steps, for a caller that frees the trace events before building the
// timelines: what needs the snapshot (events, time range, reserved bytes), then the rest.
DeviceStats trace_stats(const Snapshot& snapshot, int device);
void add_timeline_stats(DeviceStats& stats, const Timeline& blocks, const Timeline& segments,
                        const ReservedSeries& reserved);

}  // namespace snapscope
