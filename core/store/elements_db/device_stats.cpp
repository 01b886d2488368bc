#include "core/store/elements_db/device_stats.h"

#include <algorithm>

namespace snapscope {
namespace {

void count_origins(const ReplayInput& input, DeviceStats& stats) {
  for (const ReplayElement& element : input.elements) {
    if (element.origin == Origin::FreeWithoutAlloc) ++stats.free_without_alloc;
    if (element.origin == Origin::SnapshotBlock) ++stats.snapshot_blocks;
  }
}

void find_time_range(const DeviceTrace& trace, DeviceStats& stats) {
  for (const TraceEvent& event : trace.events) {
    if (event.time_us == kNoTime) continue;
    stats.first_time_us =
        stats.first_time_us == kNoTime ? event.time_us : std::min(stats.first_time_us, event.time_us);
    stats.last_time_us = std::max(stats.last_time_us, event.time_us);
  }
}

uint64_t reserved_on(const Snapshot& snapshot, int device) {
  uint64_t total = 0;
  for (const Segment& segment : snapshot.segments) {
    if (segment.device == device) total += segment.total_size;
  }
  return total;
}

}  // namespace

DeviceStats trace_stats(const Snapshot& snapshot, int device) {
  DeviceStats stats;
  stats.device = device;
  const auto device_index = static_cast<size_t>(device);
  if (device >= 0 && device_index < snapshot.device_traces.size()) {
    const DeviceTrace& trace = snapshot.device_traces[device_index];
    stats.events = trace.events.size();
    find_time_range(trace, stats);
  }
  stats.reserved_bytes = reserved_on(snapshot, device);
  return stats;
}

void add_timeline_stats(DeviceStats& stats, const Timeline& blocks, const Timeline& segments,
                        const ReservedSeries& reserved) {
  stats.allocations = blocks.element_count();
  count_origins(blocks.input(), stats);
  stats.peak_bytes = blocks.peak_bytes();
  if (blocks.action_count() > 0) stats.peak_event = blocks.action_event(blocks.peak_action());
  stats.initial_bytes = blocks.total_at_state(0);
  stats.final_bytes = blocks.total_at_state(blocks.action_count());
  stats.peak_reserved_bytes = reserved.peak();
  stats.segment_elements = segments.element_count();
}

DeviceStats compute_device_stats(const Snapshot& snapshot, const Timeline& blocks, const Timeline& segments,
                                 const ReservedSeries& reserved) {
  DeviceStats stats = trace_stats(snapshot, blocks.input().device);
  add_timeline_stats(stats, blocks, segments, reserved);
  return stats;
}

}  // namespace snapscope
