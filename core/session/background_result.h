// One background computation owned by a Session: started on an idle-priority thread, cancellable
// (a flag the work polls, then a join), and taken into the owner on the thread that reads it, so
// getters never race with the worker. A Session holds one per index it builds.
#pragma once

#include <atomic>
#include <chrono>
#include <exception>
#include <functional>
#include <future>
#include <memory>
#include <string>
#include <utility>

#include "core/session/background_registry.h"
#include "core/util/background_priority.h"

namespace snapscope {

template <class T>
class BackgroundResult final : public BackgroundTask {
 public:
  using Work = std::function<std::shared_ptr<T>(const std::atomic<bool>& cancelled)>;

  BackgroundResult() = default;
  BackgroundResult(const BackgroundResult&) = delete;
  BackgroundResult& operator=(const BackgroundResult&) = delete;
  ~BackgroundResult() override { cancel(); }

  // Cancels what runs, forgets the previous result and starts `work`; `ready` runs on the worker
  // thread when it finishes (the viewer wakes its event loop with it).
  void start(Work work, std::function<void()> ready = {}) {
    cancel();
    cancelled_ = std::make_shared<std::atomic<bool>>(false);
    running_ = start_bulk_work([work = std::move(work), cancelled = cancelled_, ready = std::move(ready)] {
      std::shared_ptr<T> result;
      try {
        result = work(*cancelled);
      } catch (...) {
        if (ready) ready();
        throw;
      }
      if (ready) ready();
      return result;
    });
  }

  // Asks the work to stop, waits for it and drops the result: nothing of it outlives this call.
  void cancel() override {
    if (cancelled_) *cancelled_ = true;
    if (running_.valid()) running_.wait();
    running_ = {};
    cancelled_.reset();
    result_.reset();
    error_.clear();
  }

  // A result known up front: cancels what runs and holds `result` as if it had been taken.
  void set(std::shared_ptr<T> result) {
    cancel();
    result_ = std::move(result);
  }

  // Takes a finished result (or its error); true when one arrived in this call.
  bool poll() override {
    if (!finished()) return false;
    try {
      result_ = running_.get();
    } catch (const std::exception& failure) {
      error_ = failure.what();
    }
    running_ = {};
    return true;
  }
  // Blocks until the work is done, then takes it.
  void wait() {
    if (running_.valid()) running_.wait();
    poll();
  }

  bool running() const override { return running_.valid(); }  // started and not taken yet
  bool finished() const override {
    return running_.valid() && running_.wait_for(std::chrono::seconds(0)) == std::future_status::ready;
  }
  const std::shared_ptr<T>& get() const { return result_; }  // null until taken (or failed)
  const std::string& error() const { return error_; }

 private:
  std::shared_ptr<std::atomic<bool>> cancelled_;
  std::future<std::shared_ptr<T>> running_;
  std::shared_ptr<T> result_;
  std::string error_;
};

}  // namespace snapscope
