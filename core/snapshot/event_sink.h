// Receives trace events while a snapshot is still being read, so that a consumer (the
// elements.db writer) can work in parallel with the parser instead of after it.
#pragma once

#include <span>
#include <vector>

#include "core/snapshot/model.h"

namespace snapscope {

// Trace events and what their fields need from the snapshot's side tables, copied: those
// tables grow while the consumer works, and move with the snapshot when reading ends.
struct EventBatch {
  std::span<const TraceEvent> events;
  std::vector<uint64_t> new_streams;  // values of the stream ids first used in this batch, in id order
  // Snapshot::event_extras[first_extra...], those of this batch's events (batches share none).
  std::vector<EventExtra> extras;
  uint32_t first_extra = 0;
};

// The consumer's copy of the side tables, from the batches in order.
class EventBatchTables {
 public:
  void add(const EventBatch& batch);
  // Both for events of the last batch added.
  uint64_t stream_of(const TraceEvent& event) const;
  EventTexts texts_of(const TraceEvent& event) const;

 private:
  const EventExtra& extra_of(const TraceEvent& event) const;

  std::vector<uint64_t> streams_{0};
  std::vector<EventExtra> extras_;
  uint32_t first_extra_ = 0;
};

// Batches arrive on the reading thread, in file order (all devices' trace entries in the
// order they appear; which device each belongs to is only known once reading ends). The
// spans point into the reader's event pool: they stay valid until finish() or cancel()
// returns, and both must block until the consumer no longer touches them.
class EventSink {
 public:
  virtual ~EventSink() = default;
  virtual void add(EventBatch batch) = 0;
  virtual void finish() = 0;  // after the last batch, when the file was read completely
  virtual void cancel() = 0;  // reading failed: the batches so far are worthless
  // Instead of finish(), when the batches' memory became the returned snapshot's trace and
  // stays valid as long as it does: need not wait for the consumer, so the reader goes on
  // while the consumer catches up. The snapshot's owner keeps it until the consumer is done.
  virtual void finish_keeping_batches() { finish(); }
};

}  // namespace snapscope
