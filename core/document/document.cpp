#include "core/document/document.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <functional>
#include <future>
#include <memory>
#include <optional>
#include <stdexcept>
#include <vector>

#include "core/allocator/allocator_history.h"
#include "core/analysis/db_annotations.h"
#include "core/analysis/trace_overflow.h"
#include "core/convert/convert.h"
#include "core/convert/staging_dir.h"
#include "core/cursor/stack_catalog.h"
#include "core/document/cache_entry_check.h"
#include "core/document/conversion_cache.h"
#include "core/document/document_image.h"
#include "core/document/folders.h"
#include "core/snapshot/snapshot_reader.h"
#include "core/store/allocations_json/allocations_json.h"
#include "core/store/elements_db/elements_db_check.h"
#include "core/store/elements_db/elements_db_reader.h"
#include "core/util/background_priority.h"
#include "core/util/run_beside.h"

namespace snapscope {
namespace fs = std::filesystem;

const char* load_stage_name(int stage) {
  switch (stage) {
    case LoadProgress::Hashing:
      return "Hashing";
    case LoadProgress::Converting:
      return "Converting";
    case LoadProgress::Reading:
      return "Reading layout";
    case LoadProgress::Indexing:
      return "Indexing";
    default:
      return "Done";
  }
}

const DeviceDocument* Document::find_device(int device) const {
  const auto it = std::find_if(devices.begin(), devices.end(),
                               [&](const DeviceDocument& entry) { return entry.device == device; });
  return it == devices.end() ? nullptr : &*it;
}

fs::path Document::elements_db() const { return directory / kElementsDbName; }

bool is_snapshot_pickle(const fs::path& path) {
  const std::string name = path.filename().string();
  return name.ends_with(".pickle") || name.ends_with(".pickle.gz") || name.ends_with(".pkl") ||
         name.ends_with(".pkl.gz") || name.ends_with(".json") || name.ends_with(".json.gz");
}

namespace {

// A pickle's cache entry: known (from the memo), or being hashed on a thread of its own while the
// conversion reads the pickle, so a fresh pickle's first frame does not wait for the hash (0.3 s
// per GB from the page cache, a whole extra pass from disk).
class CacheEntry {
 public:
  explicit CacheEntry(const fs::path& known) {
    std::promise<fs::path> ready;
    ready.set_value(known);
    dir_ = ready.get_future().share();
  }
  CacheEntry(const std::string& path, LoadProgress& progress)
      : hashing_(true),
        source_(path),
        dir_(std::async(std::launch::async, [path, &progress] {
               lower_thread_priority(kBehindWindowNice);  // the reader's core comes first
               const StageTimer timer(&progress.stages, "content key (beside the read)");
               return conversion_cache_dir(path, &progress.cancel);  // a closing viewer stops it
             }).share()) {}

  bool hashing() const { return hashing_; }
  const fs::path& dir() const { return dir_.get(); }  // waits for the hash; throws what it threw
  // The hash is done and names an entry that exists: this content was converted under another
  // name (a renamed or touched pickle), so the conversion under way is not needed.
  bool names_existing_entry() const {
    if (!hashing_ || dir_.wait_for(std::chrono::seconds(0)) != std::future_status::ready) return false;
    if (!existing_) {  // asked once; an entry that does not verify is removed and converted again
      discard_unverified_cache_entry(dir_.get(), source_);
      existing_ = !allocations_file_in(dir_.get()).empty();
    }
    return *existing_;
  }

 private:
  bool hashing_ = false;
  std::string source_;  // the snapshot file, while hashing
  std::shared_future<fs::path> dir_;
  mutable std::optional<bool> existing_;  // set once the hash is done; only the converting thread asks
};

// Thrown out of a conversion whose pickle turned out to have a cache entry already.
struct CacheEntryExists {};

// Where a conversion stages its files before its entry's name is known: a unique name in the
// cache root, never created itself (the staging directory beside it is hidden from eviction).
fs::path unnamed_entry() {
  static std::atomic<unsigned> counter{0};
  return cache_root() / ("unnamed-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
}

// Converts the pickle `path` into its cache entry. on_timelines (optional) receives the
// timelines before the database is written, on_events the events after that (ConvertOptions).
void convert_into_cache(const std::string& path, const CacheEntry& entry, LoadProgress& progress,
                        std::function<void(const Snapshot&, const ReplayedDevices&)> on_timelines = {},
                        std::function<void(const Snapshot&, const std::vector<int>&)> on_events = {}) {
  progress.stage = LoadProgress::Converting;
  progress.converted = true;
  progress.fraction = 0;
  fs::create_directories(cache_root());
  ConvertOptions options;
  options.input = path;
  if (entry.hashing()) {
    options.output_dir = unnamed_entry().string();
    options.final_output_dir = [&entry] { return entry.dir(); };
  } else {
    options.output_dir = entry.dir().string();
  }
  // What the entry is checked against when it is opened again (cache_entry_check.h).
  options.before_commit = [&path](const fs::path& staging, const fs::path& target) {
    record_cache_entry_source(staging, target, path);
  };
  options.on_timelines = std::move(on_timelines);
  options.on_events = std::move(on_events);
  options.stage_log = &progress.stages;
  options.behind_the_window = static_cast<bool>(options.on_timelines);
  options.timeline_image = true;  // the next open maps it
  options.on_progress = [&](const ConvertProgress& step) {
    if (progress.cancel && step.stage == ConvertStage::Reading) throw LoadCancelled();
    if (step.stage == ConvertStage::Reading && entry.names_existing_entry()) throw CacheEntryExists();
    // Reading dominates; deriving and writing share the last tenth.
    if (step.stage == ConvertStage::Reading && step.bytes_total > 0) {
      progress.fraction = 0.9f * static_cast<float>(step.bytes_read) / static_cast<float>(step.bytes_total);
    } else if (step.stage != ConvertStage::Reading) {
      progress.fraction = step.stage == ConvertStage::Done ? 1.0f : 0.95f;
    }
  };
  // The converter builds in a staging directory and renames: a half-done cache never exists.
  try {
    convert_snapshot(options);
  } catch (const OutputError&) {
    // Another viewer converting the same file renamed its entry into place first: use it.
    if (allocations_file_in(entry.dir()).empty()) throw;
  }
}

fs::path hashed_cache_dir(const std::string& path, LoadProgress& progress) {
  const StageTimer timer(&progress.stages, "content key (cache entry)");
  return conversion_cache_dir(path);
}

void note_cache_use(const fs::path& cache, LoadProgress& progress) {
  const StageTimer timer(&progress.stages, "cache bookkeeping");
  mark_cache_entry_used(cache);
  evict_cache(cache.parent_path(), cache_cap_bytes(), cache);
}

fs::path converted_directory_for(const std::string& path, LoadProgress& progress) {
  if (fs::is_directory(path)) return path;
  if (!fs::exists(path)) throw InputError(path + ": no such file or directory");
  progress.stage = LoadProgress::Hashing;
  const fs::path cache = hashed_cache_dir(path, progress);
  discard_unverified_cache_entry(cache, path);  // a symlink, a FIFO, another snapshot's entry
  if (allocations_file_in(cache).empty()) convert_into_cache(path, CacheEntry(cache), progress);
  note_cache_use(cache, progress);
  return cache;
}

// A converted directory's layout, once both files have been checked (InputError otherwise).
AllocationsFile read_checked_layout(const fs::path& dir, const std::string& opened_path,
                                    LoadProgress& progress) {
  const fs::path layout_path = allocations_file_in(dir);
  if (layout_path.empty()) {
    throw InputError(opened_path + ": not a snapshot pickle or converted directory (no " +
                     kAllocationsFileName + ")");
  }
  const std::string db_path = (dir / kElementsDbName).string();
  if (!fs::exists(db_path)) throw InputError(db_path + ": missing (a converted directory holds two files)");
  progress.fraction = 0;
  progress.stage = LoadProgress::Reading;
  AllocationsFile layout;
  // The layout is read beside the database's check (its reader is hardened on its own); the
  // check's error wins, as if it had run first.
  run_beside(
      [&] {
        const StageTimer timer(&progress.stages, "read " + layout_path.filename().string());
        layout = read_allocations_json(layout_path.string(), &progress.fraction, layout_text_bound(db_path));
      },
      [&] {
        const StageTimer timer(&progress.stages, "check elements.db");
        verify_elements_db(db_path);
      });
  const StageTimer check_timer(&progress.stages, "check layout against elements.db");
  verify_layout_matches_db(layout, db_path);
  return layout;
}

// The layout of `path`'s converted directory. A cache entry that fails the checks (truncated,
// tampered with) is removed and converted again, once.
AllocationsFile open_layout(const std::string& path, Document& document, LoadProgress& progress) {
  if (fs::is_directory(path)) return read_checked_layout(document.directory, path, progress);
  try {
    return read_checked_layout(document.directory, path, progress);
  } catch (const InputError&) {
    fs::remove_all(document.directory);
    document.directory = converted_directory_for(path, progress);
    return read_checked_layout(document.directory, path, progress);
  }
}

}  // namespace

std::shared_ptr<const MemoryPyramid> SharedPyramid::get(const Timeline& timeline) {
  std::lock_guard lock(mutex_);
  if (!pyramid_) pyramid_ = std::make_shared<MemoryPyramid>(timeline);
  return pyramid_;
}

namespace {

// The device shown first needs both pyramids for its first frame; after the last device is in,
// so they point into timelines that no longer move. `beside` runs with the smaller one.
void build_first_pyramids(const Document& document, const std::function<void()>& beside = {}) {
  if (document.devices.empty()) return;
  const DeviceDocument& first = document.devices.front();
  run_beside(
      [&] {
        first.pyramid(TimelineKind::Segments);
        if (beside) beside();
      },
      [&] { first.pyramid(TimelineKind::Blocks); });
}

// A cache entry's document from its timelines.img; false (nothing done) without a current one.
bool open_from_image(const std::string& path, Document& document, LoadProgress& progress) {
  if (fs::is_directory(path)) return false;  // the user's own directory: no image is written there
  progress.stage = LoadProgress::Reading;
  std::optional<std::vector<LoadedDevice>> devices = timelines_from_image(document.directory, progress);
  if (!devices) {
    document.wants_image = true;
    return false;
  }
  for (LoadedDevice& device : *devices) {
    const bool timed = device.blocks.input().has_action_times();
    document.devices.emplace_back(device.device, std::move(device.blocks), std::move(device.segments),
                                  std::move(device.reserved), timed);
  }
  return true;
}

// Both timelines and the reserved series of every device, replayed from the layout file.
void replay_layout(const std::string& path, Document& document, LoadProgress& progress) {
  AllocationsFile layout = open_layout(path, document, progress);
  progress.fraction = 0;
  progress.stage = LoadProgress::Indexing;
  const size_t count = layout.devices.size();
  const ElementsDbReader db(document.elements_db().string());
  for (size_t i = 0; i < count; ++i) {
    DeviceLayout& device = layout.devices[i];
    const bool timed = device.blocks.has_action_times();
    // The segments one, the smaller, and the reserved series are built on the other core.
    std::optional<Timeline> blocks, segments;
    ReservedSeries reserved;
    const StageTimer timer(&progress.stages, "timelines, reserved series");
    run_beside(
        [&] {
          segments.emplace(timeline_from_file(path, std::move(device.segments)));
          reserved = read_reserved_series(db, device.device);
        },
        [&] { blocks.emplace(timeline_from_file(path, std::move(device.blocks))); });
    document.devices.emplace_back(device.device, std::move(*blocks), std::move(*segments),
                                  std::move(reserved), timed);
    progress.fraction = static_cast<float>(i + 1) / static_cast<float>(count);
  }
}

}  // namespace

std::unique_ptr<Document> open_document(const std::string& path, LoadProgress& progress) {
  auto document = std::make_unique<Document>();
  document->opened_path = path;
  document->directory = converted_directory_for(path, progress);
  if (!open_from_image(path, *document, progress)) replay_layout(path, *document, progress);
  const StageTimer timer(&progress.stages, "pyramids, annotations");
  build_first_pyramids(*document, [&document] {
    document->annotations = read_db_annotations_or_none(document->elements_db().string());
  });
  progress.stage = LoadProgress::Done;
  return document;
}

namespace {

// Stands in for a history's events between its build from memory and its taker's elements.db.
class EventsNotYetStored : public EventSource {
 public:
  explicit EventsNotYetStored(size_t count) : count_(count) {}
  size_t size() const override { return count_; }
  void read(size_t, size_t, std::vector<AllocatorEvent>&) override {
    throw std::logic_error("allocator history: elements.db is not written yet");
  }

 private:
  size_t count_;
};

// The allocator history of the device shown first, from the events still in memory: the
// session would otherwise read every event back from elements.db once it lands (2 s at 1 GB,
// the longest wait for a panel after a cold open). Best effort: without it, it does that.
void offer_first_history(const Snapshot& snapshot, const std::vector<int>& devices, PendingDatabase* pending,
                         LoadProgress& progress) {
  if (pending == nullptr || devices.empty()) return;
  const StageTimer timer(&progress.stages, "allocator history (from memory)");
  try {
    std::shared_ptr<AllocatorHistory> history =
        allocator_history_from_snapshot(snapshot, devices.front(), &progress.cancel);
    history->replace_events(std::make_unique<EventsNotYetStored>(history->event_count()));
    pending->offer_history(devices.front(), std::move(history));
  } catch (const std::exception&) {
    // Cancelled, or out of memory: the session builds it from elements.db.
  }
}

// The stack catalog and trace-overflow warning, from the snapshot in memory, for the session to
// classify with before elements.db lands: on a cold open of 1 GB the categories and findings
// were the last panels ready, started only once the database was written and read back.
void offer_early_indexes(const Snapshot& snapshot, PendingDatabase* pending, LoadProgress& progress) {
  if (pending == nullptr) return;
  const StageTimer timer(&progress.stages, "stack catalog (from memory)");
  try {
    const nlohmann::json& settings = *snapshot.allocator_settings;
    pending->offer_early_indexes({catalog_from_snapshot(snapshot), trace_overflow_warning(settings)});
  } catch (const std::exception&) {
    // Out of memory: the session reads them from elements.db.
  }
}

// A document over the conversion's own timelines, whose database `pending` is still being written;
// its annotations are the snapshot's, as the database will keep them.
std::unique_ptr<Document> document_before_database(const std::string& path, const fs::path& cache,
                                                   const Snapshot& snapshot, const ReplayedDevices& replayed,
                                                   std::shared_ptr<PendingDatabase> pending) {
  auto document = std::make_unique<Document>();
  document->opened_path = path;
  document->directory = cache;
  document->pending_database = std::move(pending);
  std::vector<int> devices;
  for (const auto& device : replayed) {
    document->devices.emplace_back(device, device->blocks.input().has_action_times());
    devices.push_back(device->device);
  }
  build_first_pyramids(*document, [&] {
    document->annotations =
        std::make_shared<const std::vector<AnnotationRecord>>(snapshot_annotations(snapshot, devices));
  });
  return document;
}

// A cache hit: its document goes to `early`, then the timelines it had to replay (if it did) are
// stored in its timelines.img behind the window, for the next open.
std::unique_ptr<Document> open_cached_document(const std::string& path, LoadProgress& progress,
                                               const EarlyDocument& early) {
  std::unique_ptr<Document> document = open_document(path, progress);
  if (!document->wants_image) return document;
  const fs::path dir = document->directory;
  ReplayedDevices replayed;
  for (const DeviceDocument& device : document->devices) replayed.push_back(device.replayed());
  early(std::move(document));
  store_timeline_image(dir, replayed, progress);
  return nullptr;
}

}  // namespace

std::unique_ptr<Document> open_document_early(const std::string& path, LoadProgress& progress,
                                              const EarlyDocument& early) {
  if (!early || fs::is_directory(path) || !fs::exists(path)) return open_document(path, progress);
  progress.stage = LoadProgress::Hashing;
  const std::optional<fs::path> known = remembered_conversion_cache_dir(path);
  if (known) discard_unverified_cache_entry(*known, path);  // converted again below if it did not verify
  // A cache hit opens as usual (finding the entry again reads the content-key memo, not the file).
  if (known && !allocations_file_in(*known).empty()) return open_cached_document(path, progress, early);
  const CacheEntry entry = known ? CacheEntry(*known) : CacheEntry(path, progress);

  // Set at the hand-over (so its clock counts the wait for the database); null before it.
  std::shared_ptr<PendingDatabase> pending;
  const auto hand_over = [&](const Snapshot& snapshot, const ReplayedDevices& replayed) {
    auto waiting = std::make_shared<PendingDatabase>();
    std::unique_ptr<Document> document;
    {
      const StageTimer timer(&progress.stages, "document (pyramids, annotations)");
      document = document_before_database(path, entry.dir(), snapshot, replayed, waiting);
    }
    progress.stage = LoadProgress::Done;
    early(std::move(document));
    pending = std::move(waiting);  // only once the document is out: failures before are thrown
  };
  const auto on_events = [&](const Snapshot& snapshot, const std::vector<int>& devices) {
    offer_early_indexes(snapshot, pending.get(), progress);  // first: categories run beside the history
    offer_first_history(snapshot, devices, pending.get(), progress);
  };
  try {
    convert_into_cache(path, entry, progress, hand_over, on_events);
  } catch (const CacheEntryExists&) {
    return open_cached_document(path, progress, early);  // the memo now has the key: no second hash
  } catch (const std::exception& error) {
    if (!pending) throw;
    pending->fail(error.what());  // the chart stays; the panels that need the database say why
    return nullptr;
  }
  if (!pending) return open_document(path, progress);  // another viewer's entry
  pending->finish();
  try {
    note_cache_use(entry.dir(), progress);
  } catch (const std::exception&) {
    // Bookkeeping only: the entry is complete and in use whether or not the others were trimmed.
  }
  return nullptr;
}

}  // namespace snapscope
