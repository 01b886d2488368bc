// A cache entry's timelines.img (core/store/timeline_image) as the document loader uses it: read
// instead of the layout file when it is there and current, written after an open that had to
// replay (a warm open without one, or a conversion once its entry is complete).
#pragma once

#include <filesystem>
#include <optional>
#include <vector>

#include "core/convert/convert.h"
#include "core/document/document.h"
#include "core/store/timeline_image/timeline_image.h"

namespace snapscope {

// The timelines of cache entry `dir` from its image, which is checked as it is read and against
// elements.db as the layout file would be (and elements.db itself is checked): nullopt when the
// entry has no current image, or any of that fails (a malformed image is removed; the caller
// then opens the layout file, whose checks report what is wrong with the entry).
std::optional<std::vector<LoadedDevice>> timelines_from_image(const std::filesystem::path& dir,
                                                              LoadProgress& progress);

// Writes `dir`'s image from `devices` for the next open, at a background thread priority. Best
// effort: without it, the next open reads the layout file and replays.
void store_timeline_image(const std::filesystem::path& dir, const ReplayedDevices& devices,
                          LoadProgress& progress);

}  // namespace snapscope
