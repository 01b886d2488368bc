// Shared by the fuzz harnesses: a small converted directory made once per process from the
// generator (never from the shared snapshots), and the input bytes as a string_view.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

#include "core/store/allocations_json/allocations_json.h"

namespace snapscope::fuzz {

// A directory (allocations.json + elements.db) converted from a generated 400-event snapshot;
// made on first use, removed at exit.
const std::filesystem::path& fixture_dir();

// A fresh scratch directory for this process, removed at exit.
const std::filesystem::path& scratch_dir();

// Replays every device's two timelines, as the converter and the viewer do after reading.
void replay_all(snapscope::AllocationsFile& layout);

// Replaces `path` with `bytes`.
void write_file(const std::filesystem::path& path, std::string_view bytes);

inline std::string_view as_text(const uint8_t* data, size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

}  // namespace snapscope::fuzz
