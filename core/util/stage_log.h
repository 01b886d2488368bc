// Named pipeline steps with their wall-clock span and the process's peak RSS at their end,
// for `snapscope-convert --timings`. Thread-safe: the database thread and the main thread
// record into one log, so overlapping steps show up as overlapping spans.
#pragma once

#include <chrono>
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

namespace snapscope {

// Peak resident set size of this process so far (VmHWM), 0 where unknown.
uint64_t peak_rss_bytes();

class StageLog {
 public:
  using Clock = std::chrono::steady_clock;
  struct Entry {
    std::string name;
    double start_s = 0, end_s = 0;  // since the log was created
    uint64_t peak_rss_bytes = 0;    // at the end of the step
  };

  void record(std::string name, Clock::time_point start);
  void restart();  // forgets the steps and counts from now
  std::vector<Entry> entries() const;
  std::string format() const;  // one line per step

 private:
  Clock::time_point origin_ = Clock::now();
  mutable std::mutex mutex_;
  std::vector<Entry> entries_;
};

// Records the enclosing scope as one step (no-op with a null log).
class StageTimer {
 public:
  StageTimer(StageLog* log, std::string name) : log_(log), name_(std::move(name)) {}
  ~StageTimer() {
    if (log_) log_->record(std::move(name_), start_);
  }
  StageTimer(const StageTimer&) = delete;
  StageTimer& operator=(const StageTimer&) = delete;

 private:
  StageLog* log_;
  std::string name_;
  StageLog::Clock::time_point start_ = StageLog::Clock::now();
};

}  // namespace snapscope
