// Hands the reader's event batches (EventSink) to the elements.db thread. The reader never
// waits on an add(); it waits once, in finish() / cancel(), for the consumer to let go of
// the batches, because they point into the reader's event pool, unless the pool became the
// snapshot's trace (finish_keeping_batches()). Then cancel() is what waits, if it comes.
#pragma once

#include <condition_variable>
#include <deque>
#include <mutex>
#include <optional>
#include <span>

#include "core/snapshot/event_sink.h"

namespace snapscope {

class EventHandoff final : public EventSink {
 public:
  // Producer side (the reading thread).
  void add(EventBatch batch) override;
  void finish() override;
  void cancel() override;
  void finish_keeping_batches() override;

  // Consumer side: the next batch; nullopt once the stream has ended or was cancelled
  // (cancelled() tells which).
  std::optional<EventBatch> next();
  bool cancelled() const;
  // The consumer calls this exactly once when it stops reading batches, also on failure.
  void consumer_done();

 private:
  void end_and_wait(bool cancel);

  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<EventBatch> batches_;
  bool ended_ = false;
  bool cancelled_ = false;
  bool consumer_done_ = false;
};

}  // namespace snapscope
