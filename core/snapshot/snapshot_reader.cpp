#include "core/snapshot/snapshot_reader.h"

#include <filesystem>

#include "core/pickle/unpickler.h"
#include "core/snapshot/json_snapshot.h"
#include "core/snapshot/snapshot_builder.h"
#include "core/snapshot/snapshot_reducer.h"
#include "core/util/byte_source.h"

namespace snapscope {
namespace {

// Cancels the event sink unless released (when reading or building throws before the stream is closed).
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

namespace {

// The parallel reader for `source`, when it has random access and the options and its size ask
// for more than one thread.
std::unique_ptr<ParallelChunks> read_in_parallel(const ByteSource& source, const ReadOptions& options,
                                                 const pickle::UnpicklerLimits& limits,
                                                 SnapshotReducer& reducer, Snapshot& snapshot) {
  const std::optional<uint64_t> size = source.remaining();
  if (!size || !source.has_random_access()) return nullptr;
  ParallelReadOptions parallel;
  if (options.parallel_for_tests) {
    parallel = *options.parallel_for_tests;
  } else {
    parallel.threads = read_threads_for(*size, options.threads);
  }
  if (parallel.threads < 2) return nullptr;
  return std::make_unique<ParallelChunks>(source, *size, parallel, limits, reducer, snapshot);
}

// The unpickler's run, but a parse of bytes read in place counts only if they stayed the file's:
// when the file shrank meanwhile, that is the error, whatever the zeros read made of the parse.
pickle::Value run_unchanged(pickle::Unpickler& unpickler, const ByteSource& source) {
  pickle::Value top;
  try {
    top = unpickler.run();
  } catch (...) {
    source.check_unchanged();
    throw;
  }
  source.check_unchanged();
  return top;
}

// Reads the snapshot `source` holds; `name` is what errors name.
Snapshot read_source(ByteSource& source, const std::string& name, uint64_t total,
                     const ReadOptions& options) {
  Snapshot snapshot;
  snapshot.source_path = name;
  snapshot.source_bytes = total;
  const std::optional<uint64_t> remaining = source.remaining();  // unknown for gzip
  SnapshotReducer reducer(snapshot, options.event_sink, options.only_device,
                          remaining ? expected_events_for(*remaining) : 0);
  reducer.limit_event_extras(options.max_event_extras);
  // The sink reads the reducer's pool: it must be done with it before the pool goes away.
  StreamCancelGuard guard(options.event_sink);
  const auto limits = pickle::UnpicklerLimits::for_input(remaining);
  pickle::Unpickler unpickler(source, snapshot.strings, &reducer, limits);
  unpickler.read_batches(options.read_batches);
  // Declared after the reducer and the unpickler: its threads stop before they go.
  std::unique_ptr<ParallelChunks> parallel = read_in_parallel(source, options, limits, reducer, snapshot);
  if (parallel) unpickler.set_splicer(parallel.get());
  pickle::Value top = run_unchanged(unpickler, source);
  if (options.batch_items) *options.batch_items = unpickler.batch_items_read();
  if (parallel && options.parallel_stats) *options.parallel_stats = parallel->stats();
  parallel.reset();
  reducer.end_stream();
  build_snapshot(top, unpickler, reducer, options, snapshot);
  reducer.close_stream();  // waits for the sink unless the pool became the trace as it is
  guard.release();
  return snapshot;
}

// Runs `read`, turning every failure into one InputError line that starts with `name`.
template <typename Read>
Snapshot naming_errors(const std::string& name, Read read) {
  try {
    return read();
  } catch (const pickle::PickleError& e) {
    throw InputError(name + ": " + e.what());
  } catch (const pickle::ReduceError& e) {
    throw InputError(name + ": " + e.what());
  } catch (const SourceError& e) {
    throw InputError(name + ": " + e.what());
  } catch (const std::bad_alloc&) {
    throw InputError(name + ": out of memory while reading");
  }
}

// A .memviz.json beside a snapshot holds memory_viz's layout of it (`"format": "memviz-ref/N"`
// near the top), not the snapshot: say so instead of failing deep inside its arrays.
void refuse_layout_file(const std::string& path) {
  std::string head(4096, '\0');
  auto source = open_file_source(path);
  size_t filled = 0;
  for (size_t n;
       filled < head.size() &&
       (n = source->read({reinterpret_cast<uint8_t*>(head.data()) + filled, head.size() - filled})) > 0;)
    filled += n;
  head.resize(filled);
  const size_t key = head.find("\"format\"");
  if (key != std::string::npos && head.find("\"memviz", key) < key + 32)
    throw SourceError(
        "this is a memory_viz layout file (a .memviz.json reference), not a snapshot: open the .pickle "
        "it was made from");
}

}  // namespace

Snapshot read_snapshot(const std::string& path, const ReadOptions& options) {
  return naming_errors(path, [&] {
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
      refuse_layout_file(path);
      transcoded = json_snapshot_to_pickle(*source);
      source = std::make_unique<MemorySource>(transcoded);
    }
    return read_source(*source, path, total, options);
  });
}

Snapshot read_snapshot_bytes(std::string_view bytes, const std::string& name, const ReadOptions& options) {
  return naming_errors(name, [&] {
    auto source = inflate_if_gzip(std::make_unique<MemorySource>(bytes));
    return read_source(*source, name, bytes.size(), options);
  });
}

}  // namespace snapscope
