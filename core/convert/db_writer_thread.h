// elements.db is built on its own thread, in three overlapped parts: the events while the
// pickle is still being parsed on the main thread (EventSink), the snapshot's other tables
// while the timelines are derived, and the layout tables while allocations.json is written.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <filesystem>
#include <future>
#include <mutex>
#include <vector>

#include "core/convert/event_handoff.h"
#include "core/snapshot/model.h"
#include "core/store/elements_db/elements_db.h"
#include "core/util/stage_log.h"

namespace snapscope {

class DbWriterThread {
 public:
  // Starts the thread. Streamed events are keyed as `stream_device`'s trace (see
  // ElementsDbBuilder::stream_events).
  // `background`: the thread lowers its priority below the window's and the chart's.
  DbWriterThread(const std::filesystem::path& path, StageLog* log, int stream_device,
                 bool background = false);
  ~DbWriterThread();  // cancels whatever was not handed over yet and joins
  DbWriterThread(const DbWriterThread&) = delete;
  DbWriterThread& operator=(const DbWriterThread&) = delete;

  EventSink& event_sink() { return handoff_; }  // for ReadOptions::event_sink
  // Both must outlive wait() (or this object).
  void give_snapshot(const Snapshot& snapshot, const std::vector<int>& devices);
  void give_layouts(std::vector<DeviceTimelines> devices);
  // Block until the thread has written the snapshot's own tables (after which it no longer
  // reads the trace events), or no longer reads the snapshot or the layouts at all (they may
  // be freed then, before the index build, the phase with the biggest SQLite memory). Both
  // also return when the thread has failed.
  void wait_events_released() { wait_for(Progress::EventsReleased); }
  bool events_released() const;  // without waiting
  void wait_inputs_released() { wait_for(Progress::InputsReleased); }
  void wait();  // rethrows the thread's failure

 private:
  struct SnapshotRef {
    const Snapshot* snapshot = nullptr;
    const std::vector<int>* devices = nullptr;
  };
  void run(const std::filesystem::path& path, StageLog* log, int stream_device, bool background);
  void stream_events(ElementsDbBuilder& builder, StageLog* log, int device);
  enum class Progress : uint8_t { Started, EventsReleased, InputsReleased };
  void wait_for(Progress progress);
  void reach(Progress progress);
  class InputsReleased;

  EventHandoff handoff_;
  std::promise<SnapshotRef> snapshot_;
  std::future<SnapshotRef> snapshot_ready_ = snapshot_.get_future();
  std::promise<std::vector<DeviceTimelines>> layouts_;
  std::future<std::vector<DeviceTimelines>> layouts_ready_ = layouts_.get_future();
  bool snapshot_given_ = false, layouts_given_ = false;
  mutable std::mutex progress_mutex_;
  std::condition_variable progress_changed_;
  Progress progress_ = Progress::Started;
  std::future<void> done_;
};

}  // namespace snapscope
