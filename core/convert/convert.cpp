#include "core/convert/convert.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <future>
#include <memory>

#include "core/convert/staging_dir.h"
#include "core/snapshot/snapshot_reader.h"
#include "core/store/allocations_json.h"
#include "core/store/elements_db.h"

namespace snapscope {
namespace fs = std::filesystem;
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// One device's replays. Timelines own their ReplayInput, so both output files are written
// from here without copying the elements.
struct DeviceReplay {
  Timeline blocks;
  Timeline segments;
  DeviceStats stats;
};

void report(const ConvertOptions& options, ConvertStage stage, uint64_t bytes_total) {
  if (options.on_progress) options.on_progress({stage, bytes_total, bytes_total});
}

Snapshot read_input(const ConvertOptions& options) {
  ReadOptions read_options;
  read_options.only_device = options.device;
  read_options.on_progress = [&](const ReadProgress& progress) {
    if (options.on_progress) {
      options.on_progress({ConvertStage::Reading, progress.bytes_read, progress.bytes_total});
    }
  };
  return read_snapshot(options.input, read_options);
}

std::vector<int> devices_to_convert(const Snapshot& snapshot, const ConvertOptions& options) {
  const std::vector<int> present = snapshot.devices();
  if (options.device < 0) return present;
  // The reader skipped the other devices' traces, so there is no complete device list to offer.
  if (std::find(present.begin(), present.end(), options.device) == present.end()) {
    throw InputError(options.input + ": device " + std::to_string(options.device) +
                     " is not in the snapshot");
  }
  return {options.device};
}

// The two timelines are independent, so the segment one is built on a second thread.
std::unique_ptr<DeviceReplay> replay_device(const Snapshot& snapshot, int device) {
  auto segments = std::async(std::launch::async, [&] {
    return Timeline(derive_replay_input(snapshot, device, TimelineKind::Segments));
  });
  Timeline blocks(derive_replay_input(snapshot, device, TimelineKind::Blocks));
  auto replay = std::make_unique<DeviceReplay>(DeviceReplay{std::move(blocks), segments.get(), {}});
  replay->stats = compute_device_stats(snapshot, replay->blocks, replay->segments);
  return replay;
}

// elements.db is written on a second thread while allocations.json is written here.
void write_outputs(const Snapshot& snapshot, const std::vector<std::unique_ptr<DeviceReplay>>& replays,
                   const fs::path& dir) {
  std::vector<DeviceTimelines> db_devices;
  std::vector<DeviceLayoutRef> json_devices;
  for (const auto& replay : replays) {
    db_devices.push_back({&replay->blocks, &replay->segments, replay->stats});
    json_devices.push_back({replay->stats.device, &replay->blocks.input(), &replay->segments.input()});
  }
  auto db = std::async(std::launch::async,
                       [&] { write_elements_db(snapshot, db_devices, (dir / kElementsDbName).string()); });
  try {
    write_allocations_json(snapshot.source_path, snapshot.source_bytes, json_devices,
                           (dir / kAllocationsJsonName).string());
  } catch (...) {
    db.wait();  // the db thread still reads the replays; let it finish before they go away
    throw;
  }
  db.get();
}

ConvertSummary make_summary(const Snapshot& snapshot, const ConvertOptions& options,
                            const std::vector<std::unique_ptr<DeviceReplay>>& replays) {
  ConvertSummary summary;
  summary.file = options.input;
  summary.file_bytes = snapshot.source_bytes;
  summary.output_dir = options.output_dir;
  for (const auto& replay : replays) {
    const DeviceStats& stats = replay->stats;
    summary.devices.push_back(stats);
    summary.events += stats.events;
    if (stats.first_time_us == kNoTime) continue;
    summary.first_time_us = summary.first_time_us == kNoTime
                                ? stats.first_time_us
                                : std::min(summary.first_time_us, stats.first_time_us);
    summary.last_time_us = std::max(summary.last_time_us, stats.last_time_us);
  }
  return summary;
}

uint64_t file_size_or_zero(const fs::path& path) {
  std::error_code ec;
  const auto size = fs::file_size(path, ec);
  return ec ? 0 : size;
}

}  // namespace

ConvertSummary convert_snapshot(const ConvertOptions& options) {
  const auto start = Clock::now();
  StagingDirectory::check_target(options.output_dir, options.force);  // fail before the slow part

  const Snapshot snapshot = read_input(options);
  ConvertTimings timings;
  timings.read_s = seconds_since(start);

  report(options, ConvertStage::Deriving, snapshot.source_bytes);
  const auto derive_start = Clock::now();
  std::vector<std::unique_ptr<DeviceReplay>> replays;
  for (const int device : devices_to_convert(snapshot, options))
    replays.push_back(replay_device(snapshot, device));
  timings.derive_s = seconds_since(derive_start);

  report(options, ConvertStage::Writing, snapshot.source_bytes);
  const auto write_start = Clock::now();
  StagingDirectory staging(options.output_dir, options.force);
  write_outputs(snapshot, replays, staging.path());
  staging.commit();
  timings.write_s = seconds_since(write_start);

  ConvertSummary summary = make_summary(snapshot, options, replays);
  summary.output_dir = staging.target().string();
  summary.db_bytes = file_size_or_zero(staging.target() / kElementsDbName);
  summary.json_bytes = file_size_or_zero(staging.target() / kAllocationsJsonName);
  timings.total_s = seconds_since(start);
  summary.timings = timings;
  report(options, ConvertStage::Done, snapshot.source_bytes);
  return summary;
}

}  // namespace snapscope
