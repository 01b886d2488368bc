// Session: the caching allocator at the focused event (the Allocator state tab) as a background
// result over the shown device's AllocatorHistory, and the reserved / fragmentation curve.
#include <chrono>
#include <thread>

#include "core/session/session.h"

namespace snapscope {

const SessionAllocatorState* Session::allocator_state(int64_t event) {
  allocator_state_wanted_ = event;
  start_allocator_state();
  return allocator_state_.get();
}

bool Session::allocator_state_pending() const {
  if (!allocator_state_wanted_ || allocator_state_done_ == allocator_state_wanted_) return false;
  // No history, none coming (the database or its replay failed): no state can come either.
  return history_.get() != nullptr || history_.running() || database_writing();
}

const SessionAllocatorState* Session::allocator_state_now(int64_t event) {
  wait_allocator_history();
  allocator_state(event);
  while (allocator_state_pending()) {
    poll();
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return allocator_state_ && allocator_state_->event == event ? allocator_state_.get() : nullptr;
}

void Session::start_allocator_state() {
  const std::shared_ptr<AllocatorHistory>& history = history_.get();
  if (!history || !allocator_state_wanted_ || allocator_state_done_ == allocator_state_wanted_ ||
      allocator_state_build_.running())
    return;
  const int64_t event = *allocator_state_wanted_;
  allocator_state_building_ = event;
  allocator_state_build_.start(
      [history, event](const std::atomic<bool>&) {
        const auto start = std::chrono::steady_clock::now();
        auto built = std::make_shared<SessionAllocatorState>();
        built->event = event;
        built->state = history->after_event(event);
        built->layout = layout_segments(built->state, &history->pools());
        built->build_ms =
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
        return std::shared_ptr<const SessionAllocatorState>(std::move(built));
      },
      ready_);
}

void Session::forget_allocator_state() {
  allocator_state_build_.cancel();
  allocator_state_.reset();
  allocator_state_building_.reset();
  allocator_state_done_.reset();
}

const UsageCurve* Session::usage_curve() {
  const DeviceDocument* shown = device();
  if (shown != usage_device_) {
    usage_curve_ = shown ? std::make_unique<UsageCurve>(shown->blocks, shown->reserved) : nullptr;
    usage_device_ = shown;
  }
  return usage_curve_.get();
}

}  // namespace snapscope
