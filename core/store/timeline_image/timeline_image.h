// timelines.img: what a cache entry's replay made (both timelines and the reserved series of
// every device), stored so that the next open maps it into memory instead of parsing
// allocations.json and replaying it. Warm open was most of all page faults on fresh memory (a
// VM zeroes every page first): a view of the page cache needs neither zeroing nor copying.
//
// The file is derived data of one cache entry and is trusted no more than the rest of it. It
// names the size and modification time of the layout file (allocations.json) it was made from
// (an image that does not match it is stale and ignored; elements.db is checked against the
// image's layout at every open, as against the layout file's), and every array is checked as
// it is read: sizes, element and position indices, cross-references (Timeline::check_parts), so
// that no query can read outside it. A malformed file is an InputError naming it.
//
// Format (native byte order; a file from another order or layout fails its header): a 64-byte
// header, then per device its number, both timelines' Timeline::parts_of and the reserved
// series' initial bytes, flag and steps. A figure is 8 bytes; a column is its count and its
// element size (8 bytes each), then its bytes, from a 64-byte boundary.
#pragma once

#include <filesystem>
#include <optional>
#include <vector>

#include "core/timeline/reserved_series.h"
#include "core/timeline/timeline.h"
#include "core/util/stage_log.h"

namespace snapscope {

inline constexpr const char* kTimelineImageName = "timelines.img";

struct ImagedDevice {
  int device = 0;
  const Timeline* blocks = nullptr;
  const Timeline* segments = nullptr;
  const ReservedSeries* reserved = nullptr;
};

// Writes the image to `image` for `layout_file` (allocations.json(.zst)) as it is now: a
// temporary file renamed into place, so a reader sees a whole image or none. Throws
// std::runtime_error when it cannot.
void write_timeline_image(const std::filesystem::path& image, const std::filesystem::path& layout_file,
                          const std::vector<ImagedDevice>& devices);
// The same, best effort (a full disk, a removed directory: the next open replays), timed as
// "write timelines.img" in `log` (may be null).
void write_timeline_image_quietly(const std::filesystem::path& image,
                                  const std::filesystem::path& layout_file,
                                  const std::vector<ImagedDevice>& devices, StageLog* log);

struct LoadedDevice {
  int device = 0;
  Timeline blocks;
  Timeline segments;
  ReservedSeries reserved;
};

// The image at `image`, its arrays mapped (they keep the mapping alive): nullopt when there is
// none or it was made from another layout file than `layout_file` as it is now. Throws
// InputError ("<image>: <reason>") when it is malformed.
std::optional<std::vector<LoadedDevice>> read_timeline_image(const std::filesystem::path& image,
                                                             const std::filesystem::path& layout_file);

}  // namespace snapscope
