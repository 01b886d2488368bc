// Computes CursorAnalysis on a background thread so stepping the cursor never blocks a frame:
// the UI posts the wanted state, the worker computes the newest request only (older ones are
// skipped), and the UI picks up finished results when it draws.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>

#include "core/cursor/cursor_analysis.h"

namespace snapscope {

struct AnalysisRequest {
  const Timeline* timeline = nullptr;         // must stay alive until wait_idle() returns
  std::shared_ptr<const StackSource> source;  // shared read-only (StackCatalog)
  size_t state = 0;
  bool filter_frames = true;
  LocationRule location_rule = LocationRule::FirstUserFrame;
  uint64_t wrappers = 0;  // wrapper_libraries_generation(): editing the list recomputes
  bool operator==(const AnalysisRequest&) const = default;
};

class AnalysisWorker {
 public:
  AnalysisWorker();
  ~AnalysisWorker();
  AnalysisWorker(const AnalysisWorker&) = delete;
  AnalysisWorker& operator=(const AnalysisWorker&) = delete;

  // Replaces any request not started yet.
  void request(AnalysisRequest request);
  // The newest finished result not taken yet.
  std::shared_ptr<const CursorAnalysis> take_result();
  bool busy() const;        // a request is pending or running
  bool has_result() const;  // a finished result waits for take_result()
  // Drops the pending request and waits for a running one (before its timeline goes away).
  void wait_idle();
  // Called on the worker thread after each result lands, e.g. to wake an event loop that waits
  // for input (the viewer posts an empty GLFW event). Set before the first request.
  void set_ready_callback(std::function<void()> ready) { ready_ = std::move(ready); }
  // Computes on the calling thread (headless scripts want the answer now).
  static std::shared_ptr<const CursorAnalysis> compute(const AnalysisRequest& request);

 private:
  void run();

  mutable std::mutex mutex_;
  std::condition_variable wake_, idle_;
  std::optional<AnalysisRequest> pending_;
  bool running_ = false, stopping_ = false;
  std::shared_ptr<const CursorAnalysis> result_;
  std::function<void()> ready_;
  std::thread thread_;
};

}  // namespace snapscope
