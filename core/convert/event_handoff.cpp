#include "core/convert/event_handoff.h"

#include <utility>

namespace snapscope {

void EventHandoff::add(EventBatch batch) {
  const std::lock_guard lock(mutex_);
  if (consumer_done_) return;  // the consumer failed; its error surfaces later
  batches_.push_back(std::move(batch));
  changed_.notify_all();
}

void EventHandoff::finish() { end_and_wait(false); }

void EventHandoff::finish_keeping_batches() {
  const std::lock_guard lock(mutex_);
  ended_ = true;
  changed_.notify_all();
}

void EventHandoff::cancel() { end_and_wait(true); }

void EventHandoff::end_and_wait(bool cancel) {
  std::unique_lock lock(mutex_);
  ended_ = true;
  cancelled_ = cancelled_ || cancel;
  changed_.notify_all();
  changed_.wait(lock, [this] { return consumer_done_; });
}

std::optional<EventBatch> EventHandoff::next() {
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [this] { return cancelled_ || !batches_.empty() || ended_; });
  if (cancelled_ || batches_.empty()) return std::nullopt;
  EventBatch batch = std::move(batches_.front());
  batches_.pop_front();
  return batch;
}

bool EventHandoff::cancelled() const {
  const std::lock_guard lock(mutex_);
  return cancelled_;
}

void EventHandoff::consumer_done() {
  const std::lock_guard lock(mutex_);
  consumer_done_ = true;
  batches_.clear();
  changed_.notify_all();
}

}  // namespace snapscope
