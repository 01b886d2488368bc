// Loading a pickle or a converted directory into an AnalysisSource (see export_source.h).
#include "core/export/export_source.h"

#include <filesystem>
#include <stdexcept>
#include <system_error>

#include "core/allocator/private_pool_input.h"
#include "core/analysis/db_annotations.h"
#include "core/analysis/db_stack_source.h"
#include "core/analysis/snapshot_stack_source.h"
#include "core/analysis/state_mapping.h"
#include "core/convert/convert.h"
#include "core/snapshot/snapshot_reader.h"
#include "core/store/allocations_json/allocations_json.h"
#include "core/store/elements_db/elements_db_check.h"
#include "core/store/elements_db/elements_db_reader.h"

namespace snapscope {

namespace {

// The requested device, or the first one the input offers.
int choose_device(const std::string& file, const std::vector<int>& devices, int requested) {
  if (devices.empty()) throw InputError(file + ": no device has a trace or segments");
  if (requested < 0) return devices.front();
  for (int device : devices) {
    if (device == requested) return device;
  }
  throw InputError(file + ": no device " + std::to_string(requested));
}

// Few events carry forward_frames (backward allocations of traces recorded with them).
ForwardFramesByEvent snapshot_forward_frames(const Snapshot& snapshot, int device) {
  ForwardFramesByEvent frames;
  if (size_t(device) >= snapshot.device_traces.size()) return frames;
  const std::vector<TraceEvent>& events = snapshot.device_traces[size_t(device)].events;
  for (size_t i = 0; i < events.size(); ++i) {
    const StringId text = snapshot.rare_of(events[i]).forward_frames;
    if (text != 0) frames.emplace(int64_t(i), std::string(snapshot.strings.view(text)));
  }
  return frames;
}

AnalysisSource load_pickle(const std::string& path, const SourceOptions& options) {
  AnalysisSource source;
  source.file = path;
  ReadOptions read;
  read.only_device = options.device;
  source.snapshot = std::make_unique<Snapshot>(read_snapshot(path, read));
  const Snapshot& snapshot = *source.snapshot;
  source.devices = snapshot.devices();
  source.device = choose_device(path, source.devices, options.device);
  const auto& traces = snapshot.device_traces;
  source.raw_events = size_t(source.device) < traces.size() ? traces[size_t(source.device)].events.size() : 0;
  source.stacks = std::make_unique<SnapshotStackSource>(snapshot);
  source.blocks = std::make_unique<Timeline>(
      timeline_from_file(path, derive_replay_input(snapshot, source.device, TimelineKind::Blocks)));
  if (options.with_segments) {
    source.segments = std::make_unique<Timeline>(
        timeline_from_file(path, derive_replay_input(snapshot, source.device, TimelineKind::Segments)));
  }
  source.reserved = reserved_series_of(snapshot, source.device);
  source.annotations = snapshot_annotations(snapshot);
  source.forward_frames = snapshot_forward_frames(snapshot, source.device);
  return source;
}

AnalysisSource load_directory(const std::string& path, const SourceOptions& options) {
  namespace fs = std::filesystem;
  AnalysisSource source;
  source.file = path;
  const fs::path json = allocations_file_in(path);
  if (json.empty()) throw InputError(path + ": not a converted directory (no " + kAllocationsFileName + ")");
  const std::string db = (fs::path(path) / kElementsDbName).string();
  verify_elements_db(db);  // a shared directory is untrusted input (docs/FORMAT.md)
  AllocationsFile layouts = read_allocations_json(json.string(), nullptr, layout_text_bound(db));
  verify_layout_matches_db(layouts, db);
  for (const DeviceLayout& layout : layouts.devices) source.devices.push_back(layout.device);
  source.device = choose_device(path, source.devices, options.device);
  for (DeviceLayout& layout : layouts.devices) {
    if (layout.device != source.device) continue;
    source.blocks = std::make_unique<Timeline>(timeline_from_file(path, std::move(layout.blocks)));
    if (options.with_segments)
      source.segments = std::make_unique<Timeline>(timeline_from_file(path, std::move(layout.segments)));
  }
  const ElementsDbReader reader(db);
  source.reserved = read_reserved_series(reader, source.device);
  source.raw_events = reader.event_count(source.device);  // --at past the end is refused, not clamped
  source.stacks = std::make_unique<DbStackSource>(db);
  source.annotations = read_db_annotations(db);
  for (auto& [event, text] : reader.forward_frames_events(source.device))
    source.forward_frames.emplace(event, std::move(text));
  source.elements_db = db;
  return source;
}

}  // namespace

AnalysisSource load_analysis_source(const std::string& path, const SourceOptions& options) {
  std::error_code error;
  const bool directory = std::filesystem::is_directory(path, error);
  // A symlink loop is one line naming the file, not a raw "filesystem error: status: ..."; a missing
  // file is reported by the reader, which says which it wanted.
  if (error && error != std::errc::no_such_file_or_directory && error != std::errc::not_a_directory)
    throw InputError(path + ": " + error.message());
  return directory ? load_directory(path, options) : load_pickle(path, options);
}

std::shared_ptr<const PrivatePoolLayout> private_pools_of(const AnalysisSource& source) {
  PrivatePoolInput input = source.snapshot
                               ? private_pool_input_from_snapshot(*source.snapshot, *source.blocks)
                               : private_pool_input_from_db(source.elements_db, *source.blocks);
  if (input.pools.empty()) return nullptr;
  return std::make_shared<const PrivatePoolLayout>(*source.blocks, std::move(input));
}

size_t resolve_moment(const AnalysisSource& source, std::optional<int64_t> event) {
  if (!event) return peak_state(*source.blocks);
  if (source.raw_events && uint64_t(*event) >= *source.raw_events) {
    throw InputError(source.file + ": no event " + std::to_string(*event) + " on device " +
                     std::to_string(source.device) + " (it has " + std::to_string(*source.raw_events) + ")");
  }
  return state_after_event(*source.blocks, *event);
}

}  // namespace snapscope
