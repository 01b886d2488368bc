// The trace events a reader builds, in file order. Storage comes in segments of one size, the
// first reserved from the input's size, so that a snapshot's events usually end up in one
// segment that becomes the device's trace as it is: no second copy of hundreds of MB (the copy
// and the zeroing of its pages were a tenth of reading a 1 GB snapshot). Segments never move,
// so spans into them stay valid for an event sink while the pool grows.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "core/snapshot/model.h"
#include "core/util/populate_ahead.h"

namespace snapscope {

class EventPool {
 public:
  // Events are handed to a sink in batches of kBatch; a segment holds a whole number of them.
  static constexpr size_t kBatch = size_t{1} << 16;

  // `expected_events`: an estimate; a larger trace costs one more segment, not a failure.
  explicit EventPool(size_t expected_events = 0);

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  const TraceEvent& operator[](size_t i) const { return segments_[i / capacity_][i % capacity_]; }

  void push_back(const TraceEvent& event) {
    if (size_ == segments_.size() * capacity_) add_segment();
    segments_.back().push_back(event);
    ++size_;
    if (size_ % kBatch == 0 && populate_ahead_)
      populate_ahead_->written(segments_.back().size() * sizeof(TraceEvent));
  }

  // Events [first, first + count), which must not cross a segment (batches never do).
  std::span<const TraceEvent> span(size_t first, size_t count) const {
    return std::span<const TraceEvent>(segments_[first / capacity_]).subspan(first % capacity_, count);
  }

  // All events, leaving the pool empty: the first segment itself when it is the only one
  // (hands_over_in_place()), so spans into it stay valid.
  std::vector<TraceEvent> take_all();
  bool hands_over_in_place() const { return segments_.size() <= 1; }

 private:
  void add_segment();

  size_t capacity_;  // per segment, a multiple of kBatch
  std::vector<std::vector<TraceEvent>> segments_;
  size_t size_ = 0;
  // The last segment's, when it is big. Declared last: it stops before the segments go.
  std::unique_ptr<PopulateAhead> populate_ahead_;
};

// An upper estimate of the trace events in `bytes` of pickle: real snapshots spend 110-180
// bytes on each (a dict of memoised keys, numbers and a frames list), ~80 without frames. The
// reservation is address space: only the events read take memory.
size_t expected_events_for(uint64_t bytes);

}  // namespace snapscope
