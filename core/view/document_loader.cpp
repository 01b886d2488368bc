#include "core/view/document_loader.h"

#include <exception>

namespace snapscope {

DocumentLoader::~DocumentLoader() { join(); }

void DocumentLoader::join() {
  if (worker_.joinable()) worker_.join();
}

bool DocumentLoader::start(const std::string& path) {
  if (running_) return false;
  join();
  running_ = true;
  path_ = path;
  progress_.stage = LoadProgress::Hashing;
  progress_.fraction = 0;
  progress_.converted = false;
  worker_ = std::thread([this, path] {
    Result result;
    try {
      result.document = open_document(path, progress_);
    } catch (const std::exception& error) {
      result.error = error.what();
    }
    const std::lock_guard lock(mutex_);
    result_ = std::move(result);
  });
  return true;
}

std::optional<DocumentLoader::Result> DocumentLoader::take_result() {
  std::optional<Result> result;
  {
    const std::lock_guard lock(mutex_);
    result.swap(result_);
  }
  if (result) {
    running_ = false;
    join();
  }
  return result;
}

}  // namespace snapscope
