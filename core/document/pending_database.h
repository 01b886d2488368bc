// The elements.db of a document whose chart was shown first (a pickle being converted): the
// converting thread finishes the database and says so here; the session and its panels read it.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "core/allocator/allocator_history.h"
#include "core/cursor/stack_catalog.h"

namespace snapscope {

class PendingDatabase {
 public:
  enum class State { Writing, Ready, Failed };

  State state() const { return state_.load(); }
  bool writing() const { return state() == State::Writing; }
  std::string error() const;  // why it failed; "" otherwise
  // Seconds since the chart was handed over without it (the status bar shows it while Writing).
  double seconds_waited() const;

  // The converting thread: the database is in place, or will never be.
  void finish();
  void fail(std::string message);
  // Runs `wake` (on the converting thread) once the state leaves Writing; at once if it has.
  void on_done(std::function<void()> wake);
  void wait() const;

  // The converting thread: a device's allocator history, built while the events were in memory.
  // Its events source is a placeholder until its taker gives it elements.db's (replace_events).
  void offer_history(int device, std::shared_ptr<AllocatorHistory> history);
  // The session, once the database is Ready: the offered history of `device`, once; else null.
  std::shared_ptr<AllocatorHistory> take_history(int device);

  // What categories and findings need beside the timelines, read from the snapshot in memory:
  // with them the session classifies while the database is still written (the database would
  // give the same catalog and warning, after its last row).
  struct EarlyIndexes {
    std::shared_ptr<const StackCatalog> catalog;
    std::optional<std::string> overflow_warning;  // trace_overflow_warning's line, if any
  };
  // The converting thread; wakes the session as finish() does.
  void offer_early_indexes(EarlyIndexes indexes);
  // The session, at any time: the offered indexes, once; else nothing.
  std::optional<EarlyIndexes> take_early_indexes();

 private:
  void settle(State state, std::string message);

  std::atomic<State> state_{State::Writing};
  const std::chrono::steady_clock::time_point created_ = std::chrono::steady_clock::now();
  mutable std::mutex mutex_;
  mutable std::condition_variable done_;
  std::string error_;                                           // guarded by mutex_
  std::function<void()> wake_;                                  // guarded by mutex_
  std::map<int, std::shared_ptr<AllocatorHistory>> histories_;  // guarded by mutex_
  std::optional<EarlyIndexes> early_;                           // guarded by mutex_
};

}  // namespace snapscope
