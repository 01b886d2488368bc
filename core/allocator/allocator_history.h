// The allocator state at any point of a trace, fast on 10M-event traces.
//
// Choice: checkpoints + undo (not the Timelines' live sets). One backward pass from the
// end-of-trace snapshot stores the full state every K events; a query copies the nearest
// checkpoint at or after the wanted position and undoes at most K events, reading only those from
// the EventSource. The Timelines cannot give this: they know neither segment_map/unmap, nor
// pending frees, nor blocks' rounded sizes. Checkpoint memory is bounded: when the stored states
// outgrow the budget, K doubles and every other checkpoint is dropped.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/allocator/allocator_state.h"
#include "core/allocator/segment_pools.h"

namespace snapscope {

// Raw trace events of one device, read in ranges (a whole trace need not fit in memory).
class EventSource {
 public:
  virtual ~EventSource() = default;
  virtual size_t size() const = 0;
  // Replaces `out` with events [begin, end).
  virtual void read(size_t begin, size_t end, std::vector<AllocatorEvent>& out) = 0;
};

// A device trace held in memory (tests, and snapshots read directly from a pickle).
class SnapshotEventSource : public EventSource {
 public:
  SnapshotEventSource(const Snapshot& snapshot, int device);
  size_t size() const override { return events_.size(); }
  void read(size_t begin, size_t end, std::vector<AllocatorEvent>& out) override;

 private:
  std::vector<AllocatorEvent> events_;
};

// A device trace read in place from a snapshot in memory, without a copy: for building a
// history while the converter still holds the events. It must not outlive them.
class TraceEventView : public EventSource {
 public:
  TraceEventView(const Snapshot& snapshot, int device);
  size_t size() const override { return events_ ? events_->size() : 0; }
  void read(size_t begin, size_t end, std::vector<AllocatorEvent>& out) override;

 private:
  const std::vector<TraceEvent>* events_ = nullptr;
  const Snapshot* snapshot_ = nullptr;
};

// The end-of-trace state: the device's segments and active blocks in the segment snapshot.
AllocatorState final_state_from_snapshot(const Snapshot& snapshot, int device);

struct OomEvent {
  size_t event = 0;
  uint64_t requested = 0;
  uint64_t device_free = 0;
};

class AllocatorHistory {
 public:
  // At 30M events (10M allocations) this keeps a state every 16K events: a query undoes at most
  // that many, in about 1-3 ms; twice the budget halves that time for 25 MB more of the viewer.
  static constexpr size_t kDefaultBudget = size_t{32} << 20;
  static constexpr size_t kDefaultInterval = 4096;

  // Runs the backward pass. `cancel` (may be null) aborts it with std::runtime_error.
  AllocatorHistory(AllocatorState final_state, std::unique_ptr<EventSource> events,
                   size_t budget_bytes = kDefaultBudget, size_t initial_interval = kDefaultInterval,
                   const std::atomic<bool>* cancel = nullptr);

  size_t event_count() const { return event_count_; }
  // State after the first `position` events, position in [0, event_count()] (clamped). Queries
  // from several threads take turns (the viewer's allocator state and the OOM findings).
  AllocatorState at_position(size_t position);
  // State right after raw event `event` (-1: before the first event).
  AllocatorState after_event(int64_t event);

  // Swaps the source that queries read events from for another holding the same trace (a
  // history built from a snapshot in memory goes on reading elements.db once the snapshot's
  // events are freed). False, and nothing changes, when its event count differs.
  bool replace_events(std::unique_ptr<EventSource> events);

  const std::vector<OomEvent>& ooms() const { return ooms_; }
  // memory_viz's stream names: 0 stays 0, other streams get 1, 2, ... in order of first use.
  uint64_t stream_name(uint64_t stream) const;

  // The snapshot segments' private pools, for naming a segment's pool (set by whoever read them).
  const SegmentPools& pools() const { return pools_; }
  void set_pools(SegmentPools pools) { pools_ = std::move(pools); }

  size_t checkpoint_interval() const { return interval_; }
  size_t checkpoint_count() const { return checkpoints_.size(); }
  size_t memory_bytes() const { return stored_bytes_; }

 private:
  struct Checkpoint {
    size_t position = 0;
    std::vector<AllocatorSegment> segments;
    std::vector<AllocatorBlock> blocks;
    size_t bytes() const;
  };
  void build(AllocatorState state, const std::atomic<bool>* cancel);
  void store(size_t position, const AllocatorState& state);
  void thin_out();  // doubles the interval, dropping checkpoints that are no longer on it
  void note_event(size_t index, const AllocatorEvent& event);
  void end_stream_run();  // records the stream run note_event was in
  static AllocatorState restore(const Checkpoint& checkpoint);
  // Undoes events [from, to) of the source on `state`, last first.
  void undo_range(AllocatorState& state, size_t from, size_t to);

  std::mutex query_mutex_;  // at_position and replace_events share events_ and buffer_
  std::unique_ptr<EventSource> events_;
  size_t event_count_ = 0;
  size_t budget_ = 0, interval_ = 1, stored_bytes_ = 0;
  std::vector<Checkpoint> checkpoints_;  // built descending, sorted ascending after build
  std::vector<OomEvent> ooms_;
  SegmentPools pools_;
  std::unordered_map<uint64_t, size_t> stream_first_use_;
  static constexpr size_t kNoRun = SIZE_MAX;
  uint64_t run_stream_ = 0;    // the stream of the run of events note_event is in
  size_t run_first_ = kNoRun;  // that run's earliest event so far
  std::unordered_map<uint64_t, uint64_t> stream_names_;
  std::vector<AllocatorEvent> buffer_;
};

// A device's whole history from a snapshot in memory (its events read in place, its pools from
// the snapshot's segments). The events must stay until replace_events() gives it another source.
std::unique_ptr<AllocatorHistory> allocator_history_from_snapshot(const Snapshot& snapshot, int device,
                                                                  const std::atomic<bool>* cancel = nullptr);

}  // namespace snapscope
