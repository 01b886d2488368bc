#include "core/snapshot/snapshot_reader.h"

#include <filesystem>

#include "core/pickle/unpickler.h"
#include "core/snapshot/json_snapshot.h"
#include "core/snapshot/snapshot_builder.h"
#include "core/snapshot/snapshot_reducer.h"
#include "core/util/byte_source.h"

namespace snapscope {
namespace {

// Cancels the event sink unless released (when reading throws before finish_stream()).
class StreamCancelGuard {
 public:
  explicit StreamCancelGuard(EventSink* sink) : sink_(sink) {}
  ~StreamCancelGuard() {
    if (sink_) sink_->cancel();
  }
  StreamCancelGuard(const StreamCancelGuard&) = delete;
  StreamCancelGuard& operator=(const StreamCancelGuard&) = delete;
  void release() { sink_ = nullptr; }

 private:
  EventSink* sink_;
};

}  // namespace

Snapshot read_snapshot(const std::string& path, const ReadOptions& options) {
  Snapshot snapshot;
  snapshot.source_path = path;
  try {
    uint64_t total = 0;
    ProgressFn progress;
    if (options.on_progress) {
      progress = [&](uint64_t read) { options.on_progress(ReadProgress{read, total}); };
    }
    std::error_code ec;
    total = std::filesystem::file_size(path, ec);  // compressed size for gzip input
    if (ec) total = 0;
    std::unique_ptr<ByteSource> source = open_file_source(path, progress);
    std::string transcoded;  // a JSON snapshot, as the pickle it stands for
    if (looks_like_json_snapshot(path)) {
      transcoded = json_snapshot_to_pickle(*source);
      source = std::make_unique<MemorySource>(transcoded);
    }
    snapshot.source_bytes = total;
    SnapshotReducer reducer(snapshot, options.event_sink, options.only_device);
    // The sink reads the reducer's pool: it must be done with it before the pool goes away.
    StreamCancelGuard guard(options.event_sink);
    pickle::Unpickler unpickler(*source, snapshot.strings, &reducer);
    pickle::Value top = unpickler.run();
    reducer.finish_stream();
    guard.release();
    build_snapshot(top, unpickler, reducer, options, snapshot);
  } catch (const pickle::PickleError& e) {
    throw InputError(path + ": " + e.what());
  } catch (const pickle::ReduceError& e) {
    throw InputError(path + ": " + e.what());
  } catch (const SourceError& e) {
    throw InputError(path + ": " + e.what());
  } catch (const std::bad_alloc&) {
    throw InputError(path + ": out of memory while reading");
  }
  return snapshot;
}

}  // namespace snapscope
