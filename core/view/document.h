// An opened snapshot as the viewer holds it: the converted directory, and per device the two
// replayed timelines (blocks and segments). Details beyond the layout stay in elements.db and
// are queried on demand (allocation_details.h).
#pragma once

#include <atomic>
#include <filesystem>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "core/timeline/memory_pyramid.h"
#include "core/timeline/timeline.h"

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
  DeviceDocument(int device_index, Timeline blocks_timeline, Timeline segments_timeline, bool timed)
      : device(device_index),
        blocks(std::move(blocks_timeline)),
        segments(std::move(segments_timeline)),
        has_time(timed) {}

  int device = 0;
  Timeline blocks;
  Timeline segments;
  bool has_time = false;  // the trace carries time_us

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

  const DeviceDocument* find_device(int device) const;
  std::filesystem::path elements_db() const;
};

// What a load is doing, written by the loading thread and read by the UI thread.
struct LoadProgress {
  enum Stage : int { Hashing, Converting, Reading, Indexing, Done };
  std::atomic<int> stage{Hashing};
  std::atomic<float> fraction{0};      // within the stage, 0..1
  std::atomic<bool> converted{false};  // this load converted a pickle (no cache entry yet)
};
const char* load_stage_name(int stage);

// .pickle / .pkl / .json snapshots, each also .gz (JSON: the same dict as the pickle).
bool is_snapshot_pickle(const std::filesystem::path& path);

// Opens a converted directory, or converts a pickle into its content-hash cache directory first
// (reusing an earlier conversion). Throws InputError / std::runtime_error with a one-line message.
std::unique_ptr<Document> open_document(const std::string& path, LoadProgress& progress);

}  // namespace snapscope
