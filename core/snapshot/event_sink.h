// Receives trace events while a snapshot is still being read, so that a consumer (the
// elements.db writer) can work in parallel with the parser instead of after it.
#pragma once

#include <span>

#include "core/snapshot/model.h"

namespace snapscope {

// Batches arrive on the reading thread, in file order (all devices' trace entries in the
// order they appear; which device each belongs to is only known once reading ends). The
// spans point into the reader's event pool: they stay valid until finish() or cancel()
// returns, and both must block until the consumer no longer touches them.
class EventSink {
 public:
  virtual ~EventSink() = default;
  virtual void add(std::span<const TraceEvent> events) = 0;
  virtual void finish() = 0;  // after the last batch, when the file was read completely
  virtual void cancel() = 0;  // reading failed: the batches so far are worthless
  // Instead of finish(), when the batches' memory became the returned snapshot's trace and
  // stays valid as long as it does: need not wait for the consumer, so the reader goes on
  // while the consumer catches up. The snapshot's owner keeps it until the consumer is done.
  virtual void finish_keeping_batches() { finish(); }
};

}  // namespace snapscope
