// allocations.json: per device, everything the viewer needs to lay out and pick allocations
// (the replay inputs of both timelines) without touching SQLite. Format: docs/FORMAT.md.
#pragma once

#include <atomic>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

#include "core/timeline/replay_input.h"

namespace snapscope {

inline constexpr int kAllocationsJsonVersion = 4;
// Version 3 wrote each action's event (event_delta), which version 4 derives from the elements:
// readers still open version 3 files, checking those events.
inline constexpr int kOldestReadableAllocationsJsonVersion = 3;

// The name of a converted directory's layout file: its JSON text in Zstandard (level 1: a sixth
// of the text's size, written at ~500 MB/s, read back at ~1.5 GB/s). Directories converted
// before hold the plain text as allocations.json; readers take either, the .zst one first.
inline constexpr const char* kAllocationsFileName = "allocations.json.zst";
inline constexpr const char* kPlainAllocationsFileName = "allocations.json";
// `dir`'s layout file, or an empty path when it has neither.
std::filesystem::path allocations_file_in(const std::filesystem::path& dir);

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
// Writes Zstandard when `path` ends in ".zst", else plain text.
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
// Zstandard content (found by its magic number, whatever the name) is decompressed first, to
// at most `max_text_bytes` (layout_text_bound of its elements.db; never more than half this
// machine's memory, at least 1 GiB, the default): the file
// is untrusted and a few KB can claim terabytes. `fraction`, when given, follows the share of
// elements and actions read so far (0..1; it is written from the reader's threads).
AllocationsFile read_allocations_json(const std::string& path, std::atomic<float>* fraction = nullptr,
                                      size_t max_text_bytes = 0);

}  // namespace snapscope
