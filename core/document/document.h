// An opened snapshot as the viewer holds it: the converted directory, and per device the two
// replayed timelines (blocks and segments). Details beyond the layout stay in elements.db and
// are queried on demand (allocation_details.h).
#pragma once

#include <atomic>
#include <filesystem>
#include <functional>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "core/analysis/annotation_pairing.h"
#include "core/convert/convert.h"
#include "core/document/pending_database.h"
#include "core/timeline/memory_pyramid.h"
#include "core/timeline/timeline.h"
#include "core/util/stage_log.h"

namespace snapscope {

// One timeline's MemoryPyramid, built by the first caller (others wait for it) and then shared.
class SharedPyramid {
 public:
  std::shared_ptr<const MemoryPyramid> get(const Timeline& timeline);

 private:
  std::mutex mutex_;
  std::shared_ptr<const MemoryPyramid> pyramid_;
};

struct DeviceDocument {
 private:
  // First, so the references below can point into it: the timelines, owned here or shared with
  // the conversion that is still writing the database from them.
  std::shared_ptr<const ReplayedDevice> timelines_;

 public:
  // Takes both timelines (a converted directory read from disk).
  DeviceDocument(int device_index, Timeline blocks_timeline, Timeline segments_timeline,
                 ReservedSeries reserved_series, bool timed)
      : DeviceDocument(std::make_shared<const ReplayedDevice>(
                           ReplayedDevice{device_index, std::move(blocks_timeline),
                                          std::move(segments_timeline), std::move(reserved_series)}),
                       timed) {}
  // Shares a conversion's timelines (ConvertOptions::on_timelines): the chart before the database.
  DeviceDocument(std::shared_ptr<const ReplayedDevice> replayed, bool timed)
      : timelines_(std::move(replayed)),
        device(timelines_->device),
        blocks(timelines_->blocks),
        segments(timelines_->segments),
        reserved(timelines_->reserved),
        has_time(timed) {}

  int device = 0;
  const Timeline& blocks;
  const Timeline& segments;
  const ReservedSeries& reserved;  // the one reserved figure (reserved_series.h)
  bool has_time = false;           // the trace carries time_us

  // The timelines as one shared object: whoever keeps it may read them after the document closes.
  const std::shared_ptr<const ReplayedDevice>& replayed() const { return timelines_; }

  const Timeline& timeline(TimelineKind kind) const {
    return kind == TimelineKind::Blocks ? blocks : segments;
  }
  // The timeline's MemoryPyramid, shared by the chart's LOD builder, the minimap and the usage
  // strip (each used to build its own, one of them on the UI thread); thread-safe. open_document
  // builds the first device's; another device's is built when first shown. It refers to the
  // timelines above: a DeviceDocument is not moved once open_document() has returned it.
  std::shared_ptr<const MemoryPyramid> pyramid(TimelineKind kind) const {
    return pyramids_[kind == TimelineKind::Blocks ? 0 : 1]->get(timeline(kind));
  }

 private:
  std::shared_ptr<SharedPyramid> pyramids_[2] = {std::make_shared<SharedPyramid>(),
                                                 std::make_shared<SharedPyramid>()};
};

struct Document {
  std::string opened_path;          // what the user asked for
  std::filesystem::path directory;  // the converted directory (allocations.json, elements.db)
  std::vector<DeviceDocument> devices;
  // Set when the chart came before the database: the conversion is still writing `directory`
  // (which does not exist until it is Ready). Null: the directory was complete when opened.
  std::shared_ptr<PendingDatabase> pending_database;
  // A cache entry whose timelines were replayed from its layout file: its timelines.img is
  // missing or stale, and the loader writes one (document_image.h).
  bool wants_image = false;
  // The external_annotations of the converted devices, read beside the pyramids: from elements.db
  // when it was complete at the open, else from the snapshot being converted (null: the session
  // reads them from elements.db). With them, the lanes above the chart take their room in the
  // first frame.
  std::shared_ptr<const std::vector<AnnotationRecord>> annotations;

  const DeviceDocument* find_device(int device) const;
  std::filesystem::path elements_db() const;
};

// What a load is doing, written by the loading thread and read by the UI thread.
struct LoadProgress {
  enum Stage : int { Hashing, Converting, Reading, Indexing, Done };
  std::atomic<int> stage{Hashing};
  std::atomic<float> fraction{0};      // within the stage, 0..1
  std::atomic<bool> converted{false};  // this load converted a pickle (no cache entry yet)
  // Set by the owner to stop a conversion while it reads the pickle (the viewer is closing): it
  // throws LoadCancelled and leaves no cache entry. A database already being written is finished.
  std::atomic<bool> cancel{false};
  // Where the load's time went (hashing, the converter's steps, reading a converted directory),
  // from the progress' creation: `snapscope --bench` prints it.
  StageLog stages;
};

struct LoadCancelled : std::runtime_error {
  LoadCancelled() : std::runtime_error("load cancelled") {}
};
const char* load_stage_name(int stage);

// .pickle / .pkl / .json snapshots, each also .gz (JSON: the same dict as the pickle).
bool is_snapshot_pickle(const std::filesystem::path& path);

// Opens a converted directory, or converts a pickle into its content-hash cache directory first
// (reusing an earlier conversion). Throws InputError / std::runtime_error with a one-line message.
std::unique_ptr<Document> open_document(const std::string& path, LoadProgress& progress);

// Receives a document before its database is written (Document::pending_database is set).
using EarlyDocument = std::function<void(std::unique_ptr<Document>)>;

// The same, except that a pickle's conversion hands its document to `early` as soon as the
// timelines exist, then goes on to finish the database (and the cache entry) and marks
// pending_database Ready or Failed; it returns null then. Errors before that point are thrown as
// above. Without a conversion (a cache hit, a directory) it behaves like open_document.
std::unique_ptr<Document> open_document_early(const std::string& path, LoadProgress& progress,
                                              const EarlyDocument& early);

}  // namespace snapscope
