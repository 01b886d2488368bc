// Computes CursorAnalysis on a background thread so stepping the cursor never blocks a frame:
// the UI posts the wanted state, the worker computes the newest request only (older ones are
// skipped), and the UI picks up finished results when it draws.
#pragma once

#include <condition_variable>
#include <cstdint>
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
  bool busy() const;  // a request is pending or running
  // Drops the pending request and waits for a running one (before its timeline goes away).
  void wait_idle();
  // Computes on the calling thread (headless scripts want the answer now).
  static std::shared_ptr<const CursorAnalysis> compute(const AnalysisRequest& request);

 private:
  void run();

  mutable std::mutex mutex_;
  std::condition_variable wake_, idle_;
  std::optional<AnalysisRequest> pending_;
  bool running_ = false, stopping_ = false;
  std::shared_ptr<const CursorAnalysis> result_;
  std::thread thread_;
};

}  // namespace snapscope
