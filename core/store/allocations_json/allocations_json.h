// allocations.json: per device, everything the viewer needs to lay out and pick allocations
// (the replay inputs of both timelines) without touching SQLite. Format: docs/FORMAT.md.
#pragma once

#include <atomic>
#include <span>
#include <string>
#include <vector>

#include "core/timeline/replay_input.h"

namespace snapscope {

inline constexpr int kAllocationsJsonVersion = 4;
// Version 3 wrote each action's event (event_delta), which version 4 derives from the elements:
// readers still open version 3 files, checking those events.
inline constexpr int kOldestReadableAllocationsJsonVersion = 3;

struct DeviceLayout {
  int device = 0;
  ReplayInput blocks;    // TimelineKind::Blocks
  ReplayInput segments;  // TimelineKind::Segments
};

struct AllocationsFile {
  int format_version = kAllocationsJsonVersion;
  std::string source_file;  // the pickle it was converted from
  uint64_t source_bytes = 0;
  std::vector<DeviceLayout> devices;
};

AllocationsFile make_allocations_file(const Snapshot& snapshot, int only_device = -1);
void write_allocations_json(const AllocationsFile& file, const std::string& path);

// The same file from replay inputs owned elsewhere (e.g. by Timelines), so the converter
// does not have to copy millions of elements. `path` must not exist yet.
struct DeviceLayoutRef {
  int device = 0;
  const ReplayInput* blocks = nullptr;
  const ReplayInput* segments = nullptr;
};
void write_allocations_json(const std::string& source_file, uint64_t source_bytes,
                            std::span<const DeviceLayoutRef> devices, const std::string& path);
// SAX-parsed; throws InputError ("<path>: <reason>") on malformed or wrong-version files.
// `fraction`, when given, follows the share of elements and actions read so far (0..1; it is
// written from the reader's threads).
AllocationsFile read_allocations_json(const std::string& path, std::atomic<float>* fraction = nullptr);

}  // namespace snapscope
