#include "core/convert/convert.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <future>
#include <memory>
#include <optional>

#include "core/analysis/trace_overflow.h"
#include "core/convert/db_writer_thread.h"
#include "core/convert/staging_dir.h"
#include "core/snapshot/snapshot_reader.h"
#include "core/store/allocations_json/allocations_json.h"
#include "core/store/elements_db/elements_db.h"
#include "core/util/background_priority.h"
#include "core/util/bench_measure.h"
#include "core/util/release_memory.h"

namespace snapscope {
namespace fs = std::filesystem;
namespace {

using Clock = std::chrono::steady_clock;

// Wall-clock and CPU time since construction.
class Stopwatch {
 public:
  double wall_s() const { return std::chrono::duration<double>(Clock::now() - wall_start_).count(); }
  double cpu_s() const { return process_cpu_seconds() - cpu_start_; }

 private:
  Clock::time_point wall_start_ = Clock::now();
  double cpu_start_ = process_cpu_seconds();
};

// One device's replays. Timelines own their ReplayInput, so both output files are written
// from here without copying the elements. The timelines are shared with on_timelines' receiver.
struct DeviceReplay {
  std::shared_ptr<const ReplayedDevice> timelines;
  DeviceStats stats;
  ElementStreams block_streams, segment_streams;  // element_streams(), for elements.db
};

// What a device's replay needs from the trace events, taken before they are freed.
struct DeviceInputs {
  ReplayInput blocks, segments;
  ReservedSeries reserved;
  DeviceStats stats;
  ElementStreams block_streams, segment_streams;
};

void report(const ConvertOptions& options, ConvertStage stage, uint64_t bytes_total) {
  if (options.on_progress) options.on_progress({stage, bytes_total, bytes_total});
}

Snapshot read_input(const ConvertOptions& options, EventSink& event_sink) {
  ReadOptions read_options;
  read_options.only_device = options.device;
  read_options.threads = options.read_threads;
  read_options.event_sink = &event_sink;
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

// The two timelines are independent, so the segment one is derived on a second thread. The
// trace's statistics and reserved series (two more passes over every event) follow it there:
// the blocks' derive is the longer, and the first chart frame waits for it.
DeviceInputs derive_device_inputs(const Snapshot& snapshot, int device) {
  DeviceInputs inputs;
  auto segments = std::async(std::launch::async, [&] {  // its fields only, until get()
    inputs.segments = derive_replay_input(snapshot, device, TimelineKind::Segments);
    inputs.segment_streams = element_streams(snapshot, inputs.segments);
    inputs.stats = trace_stats(snapshot, device);
    inputs.reserved = reserved_series_of(snapshot, device);
  });
  inputs.blocks = derive_replay_input(snapshot, device, TimelineKind::Blocks);
  inputs.block_streams = element_streams(snapshot, inputs.blocks);
  segments.get();
  return inputs;
}

std::unique_ptr<DeviceReplay> build_replay(DeviceInputs inputs) {
  auto segments = std::async(std::launch::async, [&] { return Timeline(std::move(inputs.segments)); });
  Timeline blocks(std::move(inputs.blocks));
  auto timelines = std::make_shared<const ReplayedDevice>(
      ReplayedDevice{inputs.stats.device, std::move(blocks), segments.get(), std::move(inputs.reserved)});
  auto replay = std::make_unique<DeviceReplay>(DeviceReplay{std::move(timelines), inputs.stats,
                                                            std::move(inputs.block_streams),
                                                            std::move(inputs.segment_streams)});
  add_timeline_stats(replay->stats, replay->timelines->blocks, replay->timelines->segments,
                     replay->timelines->reserved);
  return replay;
}

// The timelines need the events only to derive their inputs: free the biggest array before
// the timelines' indexes grow, once the database thread has written the events too.
void free_trace_events(Snapshot& snapshot, DbWriterThread& db) {
  db.wait_events_released();
  for (DeviceTrace& trace : snapshot.device_traces) std::vector<TraceEvent>().swap(trace.events);
  release_free_memory();
}

void write_json(const Snapshot& snapshot, const std::vector<std::unique_ptr<DeviceReplay>>& replays,
                const fs::path& dir) {
  std::vector<DeviceLayoutRef> devices;
  for (const auto& replay : replays) {
    devices.push_back(
        {replay->stats.device, &replay->timelines->blocks.input(), &replay->timelines->segments.input()});
  }
  write_allocations_json(snapshot.source_path, snapshot.source_bytes, devices,
                         (dir / kAllocationsFileName).string());
}

ConvertSummary make_summary(const Snapshot& snapshot, const ConvertOptions& options,
                            const std::vector<std::unique_ptr<DeviceReplay>>& replays) {
  ConvertSummary summary;
  summary.file = options.input;
  summary.file_bytes = snapshot.source_bytes;
  summary.output_dir = options.output_dir;
  if (auto warning = trace_overflow_warning(*snapshot.allocator_settings))
    summary.warnings.push_back(*warning);
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

using Replays = std::vector<std::unique_ptr<DeviceReplay>>;

// Derives the timelines and writes allocations.json into `dir` while `db` writes the rest.
void derive_and_write(Snapshot& snapshot, const std::vector<int>& devices, const ConvertOptions& options,
                      const fs::path& dir, DbWriterThread& db, Replays& replays, ConvertTimings& timings) {
  db.give_snapshot(snapshot, devices);
  report(options, ConvertStage::Deriving, snapshot.source_bytes);
  const Stopwatch derive;
  std::vector<DeviceInputs> inputs;
  {
    const StageTimer timer(options.stage_log, "derive replay inputs");
    for (const int device : devices) inputs.push_back(derive_device_inputs(snapshot, device));
  }
  // The events are freed first, so that the timelines' indexes grow into their memory. But a
  // viewer waiting for its first frame does not wait for the database thread to let go of them
  // (half a second at 1 GB when it lagged): it builds the timelines first, for a higher peak; so
  // does one that still reads the events once its chart is drawn (on_events).
  const bool timelines_first = options.on_timelines && (options.on_events || !db.events_released());
  const auto last_use_of_events = [&] {
    if (options.on_events) options.on_events(snapshot, devices);
    free_trace_events(snapshot, db);
  };
  if (!timelines_first) last_use_of_events();
  {
    const StageTimer timer(options.stage_log, "build timelines");
    for (DeviceInputs& device : inputs) replays.push_back(build_replay(std::move(device)));
  }
  std::vector<DeviceTimelines> layouts;
  for (const auto& replay : replays) {
    layouts.push_back({&replay->timelines->blocks, &replay->timelines->segments, replay->stats,
                       &replay->block_streams, &replay->segment_streams, &replay->timelines->reserved});
  }
  db.give_layouts(std::move(layouts));
  timings.derive_s = derive.wall_s();
  timings.derive_cpu_s = derive.cpu_s();
  if (options.on_timelines) {
    ReplayedDevices shared;
    for (const auto& replay : replays) shared.push_back(replay->timelines);
    options.on_timelines(snapshot, shared);
    if (options.behind_the_window) lower_thread_priority(kBehindWindowNice);
  }
  if (timelines_first) last_use_of_events();

  report(options, ConvertStage::Writing, snapshot.source_bytes);
  const Stopwatch write;
  {
    const StageTimer timer(options.stage_log, "write allocations.json.zst");
    write_json(snapshot, replays, dir);
  }
  timings.write_s = write.wall_s();  // so far; convert_snapshot adds the wait for the database
  timings.write_cpu_s = write.cpu_s();
}

}  // namespace

std::vector<ImagedDevice> imaged_devices(const ReplayedDevices& devices) {
  std::vector<ImagedDevice> imaged;
  for (const auto& device : devices)
    imaged.push_back({device->device, &device->blocks, &device->segments, &device->reserved});
  return imaged;
}

namespace {

ConvertSummary convert_into(const ConvertOptions& options, StagingDirectory& staging, const Stopwatch& total);

// Errors while writing name the output directory the user gave, not the hidden staging
// directory the files are written in (which is removed by then).
[[noreturn]] void rethrow_naming_target(const StagingDirectory& staging) {
  try {
    throw;
  } catch (const InputError&) {
    throw;
  } catch (const std::exception& error) {
    std::string message = error.what();
    const std::string staged = staging.path().string(), target = staging.target().string();
    const size_t at = message.find(staged);
    if (at == std::string::npos) throw;
    message.replace(at, staged.size(), target);
    throw OutputError(message);
  }
}

}  // namespace

ConvertSummary convert_snapshot(const ConvertOptions& options) {
  const Stopwatch total;
  StagingDirectory::check_target(options.output_dir, options.force);  // fail before the slow part

  // The database is written into the staging directory while the pickle is being read.
  StagingDirectory staging(options.output_dir, options.force);
  try {
    return convert_into(options, staging, total);
  } catch (...) {
    rethrow_naming_target(staging);
  }
}

namespace {

ConvertSummary convert_into(const ConvertOptions& options, StagingDirectory& staging,
                            const Stopwatch& total) {
  ConvertTimings timings;
  std::optional<Snapshot> input;  // these outlive the database thread, which reads them
  std::vector<int> devices;
  Replays replays;
  // With --device N the reader builds only device N's entries, so the stream is its trace.
  DbWriterThread db(staging.path() / kElementsDbName, options.stage_log, std::max(options.device, 0),
                    options.behind_the_window);
  {
    const StageTimer timer(options.stage_log, "read pickle");
    input.emplace(read_input(options, db.event_sink()));
    release_free_memory();  // what the unpickler's containers held, before the timelines grow
  }
  Snapshot& snapshot = *input;
  timings.read_s = total.wall_s();
  timings.read_cpu_s = total.cpu_s();
  devices = devices_to_convert(snapshot, options);
  derive_and_write(snapshot, devices, options, staging.path(), db, replays, timings);
  if (options.timeline_image) {  // on this thread, which would otherwise wait for the database
    ReplayedDevices replayed;
    for (const auto& replay : replays) replayed.push_back(replay->timelines);
    write_timeline_image_quietly(staging.path() / kTimelineImageName, staging.path() / kAllocationsFileName,
                                 imaged_devices(replayed), options.stage_log);
  }

  const Stopwatch wait;
  ConvertSummary summary = make_summary(snapshot, options, replays);
  {
    const StageTimer timer(options.stage_log, "wait for elements.db");
    // The index build needs the most SQLite memory: free the biggest inputs before it.
    db.wait_inputs_released();
    replays.clear();
    input.reset();
    db.wait();
  }
  if (options.final_output_dir) staging.retarget(options.final_output_dir());
  if (options.before_commit) options.before_commit(staging.path(), staging.target());
  staging.commit();

  summary.output_dir = staging.target().string();
  summary.db_bytes = file_size_or_zero(staging.target() / kElementsDbName);
  summary.json_bytes = file_size_or_zero(staging.target() / kAllocationsFileName);
  timings.write_s += wait.wall_s();
  timings.write_cpu_s += wait.cpu_s();
  timings.total_s = total.wall_s();
  timings.total_cpu_s = total.cpu_s();
  summary.timings = timings;
  report(options, ConvertStage::Done, summary.file_bytes);
  return summary;
}

}  // namespace

}  // namespace snapscope
