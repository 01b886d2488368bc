#include "core/convert/db_writer_thread.h"

#include <algorithm>
#include <stdexcept>

#include "core/util/background_priority.h"

namespace snapscope {
namespace {

std::exception_ptr cancelled() {
  return std::make_exception_ptr(std::runtime_error("elements.db: cancelled"));
}

// Tells the handoff that its batches are no longer read, whatever way the stream ends.
class ConsumerDone {
 public:
  explicit ConsumerDone(EventHandoff& handoff) : handoff_(handoff) {}
  ~ConsumerDone() { handoff_.consumer_done(); }
  ConsumerDone(const ConsumerDone&) = delete;
  ConsumerDone& operator=(const ConsumerDone&) = delete;

 private:
  EventHandoff& handoff_;
};

}  // namespace

class DbWriterThread::InputsReleased {
 public:
  explicit InputsReleased(DbWriterThread& thread) : thread_(thread) {}
  ~InputsReleased() { thread_.reach(Progress::InputsReleased); }
  InputsReleased(const InputsReleased&) = delete;
  InputsReleased& operator=(const InputsReleased&) = delete;

 private:
  DbWriterThread& thread_;
};

DbWriterThread::DbWriterThread(const std::filesystem::path& path, StageLog* log, int stream_device,
                               bool background) {
  done_ = std::async(std::launch::async, [this, path, log, stream_device, background] {
    run(path, log, stream_device, background);
  });
}

DbWriterThread::~DbWriterThread() {
  handoff_.cancel();  // returns at once if the stream already ended
  if (!snapshot_given_) snapshot_.set_exception(cancelled());
  if (!layouts_given_) layouts_.set_exception(cancelled());
  if (done_.valid()) done_.wait();
}

void DbWriterThread::give_snapshot(const Snapshot& snapshot, const std::vector<int>& devices) {
  snapshot_given_ = true;
  snapshot_.set_value({&snapshot, &devices});
}

void DbWriterThread::give_layouts(std::vector<DeviceTimelines> devices) {
  layouts_given_ = true;
  layouts_.set_value(std::move(devices));
}

void DbWriterThread::wait() { done_.get(); }

void DbWriterThread::wait_for(Progress progress) {
  std::unique_lock lock(progress_mutex_);
  progress_changed_.wait(lock, [&] { return progress_ >= progress; });
}

bool DbWriterThread::events_released() const {
  const std::lock_guard lock(progress_mutex_);
  return progress_ >= Progress::EventsReleased;
}

void DbWriterThread::reach(Progress progress) {
  const std::lock_guard lock(progress_mutex_);
  progress_ = std::max(progress_, progress);
  progress_changed_.notify_all();
}

void DbWriterThread::stream_events(ElementsDbBuilder& builder, StageLog* log, int device) {
  const ConsumerDone done(handoff_);
  const StageTimer timer(log, "db: events (streamed)");
  while (const auto batch = handoff_.next()) builder.stream_events(device, *batch);
  if (handoff_.cancelled()) std::rethrow_exception(cancelled());
}

void DbWriterThread::run(const std::filesystem::path& path, StageLog* log, int stream_device,
                         bool background) {
  if (background) lower_thread_priority(kBehindWindowNice);
  const InputsReleased released(*this);  // also when this throws
  std::unique_ptr<ElementsDbBuilder> builder;
  try {
    builder = std::make_unique<ElementsDbBuilder>(path.string(), log);
  } catch (...) {
    handoff_.consumer_done();  // never consumed: let the reader go on
    throw;
  }
  stream_events(*builder, log, stream_device);
  const SnapshotRef ref = snapshot_ready_.get();
  builder->add_snapshot(*ref.snapshot, *ref.devices);
  reach(Progress::EventsReleased);
  builder->add_layouts(*ref.snapshot, layouts_ready_.get());
  builder->commit();
  reach(Progress::InputsReleased);
  builder->finish();
}

}  // namespace snapscope
