// Runs open_document_early on a worker thread so the window keeps drawing (with a progress bar)
// while a big snapshot converts or loads. A converted pickle's document is the result as soon as
// its timelines exist; the worker then goes on writing its database (Document::pending_database)
// and is joined by the next start() or the destructor, so a cache entry is never left half done.
#pragma once

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "core/document/document.h"

namespace snapscope {

class DocumentLoader {
 public:
  struct Result {
    std::unique_ptr<Document> document;  // null on failure
    std::string error;
  };

  DocumentLoader() = default;
  ~DocumentLoader();
  DocumentLoader(const DocumentLoader&) = delete;
  DocumentLoader& operator=(const DocumentLoader&) = delete;

  // Starts loading; false (and nothing happens) while another load is still running, its
  // database included (joining it here would freeze the window until it lands).
  bool start(const std::string& path);
  bool busy() const { return running_; }
  // The result is ready for take_result() (a document, early or not, or an error).
  bool has_result() const;
  // How long the load running now has run (0 when none does).
  double running_seconds() const;
  // Runs on the worker thread when a result is ready, e.g. to wake a UI loop that sleeps until
  // input. Set before start() or at any time; it must not call back into the loader.
  void set_result_callback(std::function<void()> on_result);
  // The document was taken, and the worker is still writing its database.
  bool finishing() const { return !running_ && worker_.joinable() && !worker_done_; }
  const std::string& path() const { return path_; }
  const LoadProgress& progress() const { return progress_; }
  // The finished load, once; nothing while running or idle.
  std::optional<Result> take_result();

 private:
  void join();

  std::thread worker_;
  bool running_ = false;  // UI-thread view: started and its result not yet taken
  std::atomic<bool> worker_done_{true};
  std::string path_;
  LoadProgress progress_;
  std::chrono::steady_clock::time_point started_;
  mutable std::mutex mutex_;
  std::optional<Result> result_;     // guarded by mutex_
  std::function<void()> on_result_;  // guarded by mutex_
};

}  // namespace snapscope
