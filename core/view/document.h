// An opened snapshot as the viewer holds it: the converted directory, and per device the two
// replayed timelines (blocks and segments). Details beyond the layout stay in elements.db and
// are queried on demand (allocation_details.h).
#pragma once

#include <atomic>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "core/lod/memory_pyramid.h"
#include "core/timeline/timeline.h"

namespace snapscope {

struct DeviceDocument {
  int device = 0;
  Timeline blocks;
  Timeline segments;
  bool has_time = false;  // the trace carries time_us
  // Built once at load and shared by the chart's LOD builder, the minimap and the usage strip
  // (each used to build its own, one of them on the UI thread). They refer to the timelines
  // above: a DeviceDocument is not moved once open_document() has returned it.
  std::shared_ptr<const MemoryPyramid> blocks_pyramid, segments_pyramid;

  const Timeline& timeline(TimelineKind kind) const {
    return kind == TimelineKind::Blocks ? blocks : segments;
  }
  const std::shared_ptr<const MemoryPyramid>& pyramid(TimelineKind kind) const {
    return kind == TimelineKind::Blocks ? blocks_pyramid : segments_pyramid;
  }
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
  std::atomic<float> fraction{0};  // within the stage, 0..1
};
const char* load_stage_name(int stage);

bool is_snapshot_pickle(const std::filesystem::path& path);  // .pickle / .pickle.gz / .pkl

// Opens a converted directory, or converts a pickle into its content-hash cache directory first
// (reusing an earlier conversion). Throws InputError / std::runtime_error with a one-line message.
std::unique_ptr<Document> open_document(const std::string& path, LoadProgress& progress);

}  // namespace snapscope
