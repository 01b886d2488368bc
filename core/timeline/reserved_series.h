// Reserved memory (the bytes the caching allocator holds from CUDA) after every raw trace event
// of one device: the one definition that the status bar, print-cursor, the allocator pane, the
// usage strip, --report, the summary and the exports all read.
//
// Reserved bytes change only at segment_alloc / segment_map (+size) and segment_free /
// segment_unmap (-size). The end of the trace is the segment snapshot (the sum of the device's
// segments; an expandable segment is reported as its mapped ranges), so walking the changes
// back from there gives every moment. memory_viz's segment timeline is not this figure: it
// ignores segment_map / segment_unmap, so with expandable segments it draws the final mapping
// all along, and with no trace at all it leaves one segment out of its first state.
#pragma once

#include <cstdint>
#include <vector>

#include "core/snapshot/model.h"
#include "core/util/column.h"

namespace snapscope {

struct ReservedStep {
  int64_t event = 0;      // raw trace index of an event that changed reserved bytes
  uint64_t reserved = 0;  // reserved bytes right after it
  bool operator==(const ReservedStep&) const = default;
};

class ReservedSeries {
 public:
  ReservedSeries() = default;
  // `steps` ascending by event; `initial`: reserved before the first event.
  ReservedSeries(uint64_t initial, std::vector<ReservedStep> steps);
  ReservedSeries(uint64_t initial, Column<ReservedStep> steps);  // a view too (timeline images)

  // Reserved bytes right after raw event `event` (-1: before the first event).
  uint64_t after_event(int64_t event) const;
  // The highest after_event(e) for e in [first_event, last_event] (inclusive; first <= last).
  uint64_t max_between(int64_t first_event, int64_t last_event) const;
  uint64_t initial() const { return initial_; }
  uint64_t final() const { return steps_.empty() ? initial_ : steps_.back().reserved; }
  uint64_t peak() const { return peak_; }
  const Column<ReservedStep>& steps() const { return steps_; }
  // Whether a segment's change was impossible (more freed or unmapped than was reserved, or the
  // end total not reached): the trace and the segment snapshot disagree. The series is clamped.
  bool inconsistent() const { return inconsistent_; }
  void mark_inconsistent() { inconsistent_ = true; }

 private:
  void build_max_tree();
  size_t first_step_after(int64_t event) const;  // index of the first step with step.event > event

  uint64_t initial_ = 0;
  uint64_t peak_ = 0;
  bool inconsistent_ = false;
  Column<ReservedStep> steps_;
  Column<uint64_t> max_tree_;  // max over steps_[i].reserved, a bottom-up segment tree
};

// The signed change an action makes to reserved bytes (0 for block actions and the rest).
int64_t reserved_delta(Action action, uint64_t size);

// From the device's end-of-trace total and its events' changes, walked back from the end.
// `changes`: (event index, signed delta), ascending by event.
ReservedSeries reserved_series_from_changes(uint64_t final_reserved,
                                            const std::vector<std::pair<int64_t, int64_t>>& changes);

// The device's series from a snapshot in memory (its trace events must still be there).
ReservedSeries reserved_series_of(const Snapshot& snapshot, int device);

}  // namespace snapscope
