#include "core/cursor/analysis_worker.h"

namespace snapscope {

AnalysisWorker::AnalysisWorker() : thread_([this] { run(); }) {}

AnalysisWorker::~AnalysisWorker() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
    pending_.reset();
  }
  wake_.notify_all();
  thread_.join();
}

void AnalysisWorker::request(AnalysisRequest request) {
  {
    std::lock_guard lock(mutex_);
    pending_ = std::move(request);
  }
  wake_.notify_all();
}

std::shared_ptr<const CursorAnalysis> AnalysisWorker::take_result() {
  std::lock_guard lock(mutex_);
  return std::move(result_);
}

bool AnalysisWorker::busy() const {
  std::lock_guard lock(mutex_);
  return running_ || pending_.has_value();
}

bool AnalysisWorker::has_result() const {
  std::lock_guard lock(mutex_);
  return result_ != nullptr;
}

void AnalysisWorker::wait_idle() {
  std::unique_lock lock(mutex_);
  pending_.reset();
  idle_.wait(lock, [this] { return !running_; });
}

std::shared_ptr<const CursorAnalysis> AnalysisWorker::compute(const AnalysisRequest& request) {
  return std::make_shared<const CursorAnalysis>(analyze_cursor(
      *request.timeline, request.state, *request.source, request.filter_frames, request.location_rule));
}

void AnalysisWorker::run() {
  std::unique_lock lock(mutex_);
  while (true) {
    wake_.wait(lock, [this] { return stopping_ || pending_.has_value(); });
    if (stopping_) return;
    AnalysisRequest request = std::move(*pending_);
    pending_.reset();
    running_ = true;
    lock.unlock();
    std::shared_ptr<const CursorAnalysis> computed;
    try {
      computed = compute(request);
    } catch (...) {
      computed.reset();  // a broken elements.db shows as "no analysis", not a crash
    }
    lock.lock();
    running_ = false;
    const bool landed = computed != nullptr;
    if (computed) result_ = std::move(computed);
    idle_.notify_all();
    if (landed && ready_) ready_();  // under the lock: a waker must not block or call back in
  }
}

}  // namespace snapscope
