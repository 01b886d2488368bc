// Every one-shot background result a Session owns, registered once with what the Session does
// when it lands: poll(), running(), finished() and cancel_all() walk the list, so adding an
// index to the Session is one member and one registration, not an edit in every one of them.
#pragma once

#include <functional>
#include <vector>

namespace snapscope {

// What the registry needs of a background result (BackgroundResult<T> is one).
class BackgroundTask {
 public:
  virtual ~BackgroundTask() = default;
  virtual bool running() const = 0;   // started and not taken yet
  virtual bool finished() const = 0;  // done, waiting for poll()
  virtual bool poll() = 0;            // takes a finished result; true when one arrived now
  virtual void cancel() = 0;          // stops and waits; nothing of it outlives the call
};

class BackgroundRegistry {
 public:
  // `landed` runs on the polling thread right after `task`'s result (or error) is taken.
  void add(BackgroundTask& task, std::function<void()> landed = {}) {
    entries_.push_back({&task, std::move(landed)});
  }
  // In registration order, so a task's `landed` sees every earlier task's newest result.
  bool poll() {
    bool arrived = false;
    for (Entry& entry : entries_) {
      if (!entry.task->poll()) continue;
      arrived = true;
      if (entry.landed) entry.landed();
    }
    return arrived;
  }
  bool running() const {
    for (const Entry& entry : entries_) {
      if (entry.task->running()) return true;
    }
    return false;
  }
  bool finished() const {
    for (const Entry& entry : entries_) {
      if (entry.task->finished()) return true;
    }
    return false;
  }
  // In reverse order: later tasks were started from earlier ones' results.
  void cancel_all() {
    for (auto entry = entries_.rbegin(); entry != entries_.rend(); ++entry) entry->task->cancel();
  }

 private:
  struct Entry {
    BackgroundTask* task;
    std::function<void()> landed;
  };
  std::vector<Entry> entries_;
};

}  // namespace snapscope
