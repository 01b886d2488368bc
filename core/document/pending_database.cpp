#include "core/document/pending_database.h"

#include <utility>

namespace snapscope {

std::string PendingDatabase::error() const {
  const std::lock_guard lock(mutex_);
  return error_;
}

double PendingDatabase::seconds_waited() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - created_).count();
}

void PendingDatabase::finish() { settle(State::Ready, {}); }

void PendingDatabase::offer_history(int device, std::shared_ptr<AllocatorHistory> history) {
  const std::lock_guard lock(mutex_);
  histories_[device] = std::move(history);
}

std::shared_ptr<AllocatorHistory> PendingDatabase::take_history(int device) {
  const std::lock_guard lock(mutex_);
  const auto it = histories_.find(device);
  if (it == histories_.end()) return nullptr;
  std::shared_ptr<AllocatorHistory> history = std::move(it->second);
  histories_.erase(it);
  return history;
}

void PendingDatabase::offer_early_indexes(EarlyIndexes indexes) {
  std::function<void()> wake;
  {
    const std::lock_guard lock(mutex_);
    early_ = std::move(indexes);
    wake = wake_;
  }
  if (wake) wake();
}

std::optional<PendingDatabase::EarlyIndexes> PendingDatabase::take_early_indexes() {
  const std::lock_guard lock(mutex_);
  std::optional<EarlyIndexes> taken = std::move(early_);
  early_.reset();
  return taken;
}

void PendingDatabase::fail(std::string message) { settle(State::Failed, std::move(message)); }

void PendingDatabase::settle(State state, std::string message) {
  std::function<void()> wake;
  {
    const std::lock_guard lock(mutex_);
    error_ = std::move(message);
    state_ = state;
    wake = wake_;
  }
  done_.notify_all();
  if (wake) wake();
}

void PendingDatabase::on_done(std::function<void()> wake) {
  {
    const std::lock_guard lock(mutex_);
    if (state_ == State::Writing) {
      wake_ = std::move(wake);
      return;
    }
  }
  if (wake) wake();
}

void PendingDatabase::wait() const {
  std::unique_lock lock(mutex_);
  done_.wait(lock, [this] { return state_ != State::Writing; });
}

}  // namespace snapscope
