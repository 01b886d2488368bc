#include "core/document/document_loader.h"

#include <exception>

namespace snapscope {

DocumentLoader::~DocumentLoader() {
  progress_.cancel = true;  // a pickle still being read is dropped; a database being written ends
  join();
}

void DocumentLoader::join() {
  if (worker_.joinable()) worker_.join();
}

bool DocumentLoader::start(const std::string& path) {
  if (running_ || finishing()) return false;
  join();
  worker_done_ = false;
  running_ = true;
  path_ = path;
  progress_.stage = LoadProgress::Hashing;
  progress_.fraction = 0;
  progress_.converted = false;
  progress_.cancel = false;
  progress_.stages.restart();
  started_ = std::chrono::steady_clock::now();
  worker_ = std::thread([this, path] {
    const auto post = [this](Result result) {
      const std::lock_guard lock(mutex_);
      result_ = std::move(result);
      if (on_result_) on_result_();
    };
    Result result;
    try {
      result.document = open_document_early(path, progress_, [&](std::unique_ptr<Document> early) {
        post(Result{std::move(early), {}});
      });
    } catch (const std::exception& error) {
      result.error = error.what();
    }
    // Null after an early document: that was the result, and its database's fate is in it.
    if (result.document || !result.error.empty()) post(std::move(result));
    worker_done_ = true;
  });
  return true;
}

bool DocumentLoader::has_result() const {
  const std::lock_guard lock(mutex_);
  return result_.has_value();
}

double DocumentLoader::running_seconds() const {
  if (!running_) return 0;
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
}

void DocumentLoader::set_result_callback(std::function<void()> on_result) {
  const std::lock_guard lock(mutex_);
  on_result_ = std::move(on_result);
}

std::optional<DocumentLoader::Result> DocumentLoader::take_result() {
  std::optional<Result> result;
  {
    const std::lock_guard lock(mutex_);
    result.swap(result_);
  }
  // The worker may still be writing an early document's database: start() or the destructor
  // joins it.
  if (result) running_ = false;
  return result;
}

}  // namespace snapscope
