// First-open conversion of a pickle into the viewer's cache directory.
#pragma once

#include <filesystem>
#include <functional>

namespace snapscope {

// Converts `pickle` into `directory` (allocations.json + elements.db). The directory appears
// atomically: it is built beside it under a temporary name and renamed when complete, so an
// interrupted conversion is never mistaken for a finished one. on_progress gets 0..1.
void convert_snapshot_into(const std::filesystem::path& pickle, const std::filesystem::path& directory,
                           const std::function<void(float)>& on_progress);

}  // namespace snapscope
