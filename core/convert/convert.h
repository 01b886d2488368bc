// The conversion pipeline as a library (the CLI and the viewer both use it):
// read the pickle -> derive both timelines per device -> write allocations.json.zst and
// elements.db (in parallel) into a staging directory -> rename it into place.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/store/elements_db/device_stats.h"
#include "core/store/timeline_image/timeline_image.h"
#include "core/timeline/timeline.h"
#include "core/util/stage_log.h"

namespace snapscope {

inline constexpr const char* kElementsDbName = "elements.db";

enum class ConvertStage : uint8_t { Reading, Deriving, Writing, Done };

struct ConvertProgress {
  ConvertStage stage = ConvertStage::Reading;
  uint64_t bytes_read = 0;   // while Reading
  uint64_t bytes_total = 0;  // input file size
};

// One device's two replayed timelines, shared: the converter's database thread still reads them
// while a viewer already draws them (ConvertOptions::on_timelines). Immutable once built.
struct ReplayedDevice {
  int device = 0;
  Timeline blocks;
  Timeline segments;
  ReservedSeries reserved;  // reserved bytes after each event (segment_map / unmap counted)
};
using ReplayedDevices = std::vector<std::shared_ptr<const ReplayedDevice>>;
// What write_timeline_image stores of them.
std::vector<ImagedDevice> imaged_devices(const ReplayedDevices& devices);

struct ConvertOptions {
  std::string input;
  std::string output_dir;
  bool force = false;         // replace an existing output directory
  int device = -1;            // >= 0: convert only this device
  unsigned read_threads = 0;  // ReadOptions::threads (0: chosen by the usable cores)
  std::function<void(const ConvertProgress&)> on_progress;
  // Called once, on the converting thread, as soon as every device's timelines exist: before
  // allocations.json and elements.db are finished (the output directory does not exist yet).
  // What the chart needs, seconds before the database; with the snapshot, whose trace events
  // may already be freed. Exceptions it throws abort the conversion.
  std::function<void(const Snapshot&, const ReplayedDevices&)> on_timelines;
  // Called once, on the converting thread, after on_timelines and before the trace events are
  // freed, with the converted devices in order: the last chance to read the events from memory
  // (a viewer builds the shown device's allocator history here instead of from elements.db).
  // The events are then kept through the timelines' build, for a higher peak. Exceptions it
  // throws abort the conversion.
  std::function<void(const Snapshot&, const std::vector<int>& devices)> on_events;
  StageLog* stage_log = nullptr;  // optional: per-step times and peak RSS (--timings)
  // A viewer converting for its window: the database thread, and this thread once on_timelines
  // has returned, run below the window's and the chart's priority (background_priority.h),
  // which on two cores put the first frame 0.5 s after the timelines.
  bool behind_the_window = false;
  // Also write timelines.img (core/store/timeline_image) into the output, while the database
  // thread finishes: a viewer's cache entry, whose next open maps it instead of replaying.
  bool timeline_image = false;
  // When set, output_dir only says where the staging directory goes (its parent); this names the
  // output just before the staging directory is renamed to it (a viewer hashing the pickle for
  // its cache entry while it is being read). It must be in output_dir's parent directory.
  std::function<std::filesystem::path()> final_output_dir;
  // When set, called with the staging directory once every file is written and the target is
  // known, just before the rename: what the caller adds there appears with the output, atomically
  // (a viewer records which content its cache entry was converted from).
  std::function<void(const std::filesystem::path& staging, const std::filesystem::path& target)>
      before_commit;
};

// Wall-clock seconds per stage, and the process CPU seconds spent in each (all threads):
// on a shared machine CPU time is the steadier measure.
struct ConvertTimings {
  double read_s = 0, derive_s = 0, write_s = 0, total_s = 0;
  double read_cpu_s = 0, derive_cpu_s = 0, write_cpu_s = 0, total_cpu_s = 0;
};

struct ConvertSummary {
  std::string file;
  uint64_t file_bytes = 0;
  uint64_t events = 0;              // over the converted devices
  int64_t first_time_us = kNoTime;  // over all events; kNoTime when there are no timestamps
  int64_t last_time_us = kNoTime;
  std::vector<DeviceStats> devices;
  std::string output_dir;
  uint64_t db_bytes = 0, json_bytes = 0;
  std::vector<std::string> warnings;  // one line each, e.g. the allocator trace overflowed
  ConvertTimings timings;
};

// Throws InputError for bad input (including an unknown --device) and OutputError or
// std::runtime_error for output problems. On any exception nothing is left on disk.
ConvertSummary convert_snapshot(const ConvertOptions& options);

}  // namespace snapscope
