// The conversion cache's housekeeping: a size cap with least-recently-used eviction. An entry's
// last use is its directory's modification time, which the viewer touches on every open.
// Clearing the whole cache is `rm -rf "${XDG_CACHE_HOME:-$HOME/.cache}/snapscope"` (README).
#pragma once

#include <cstdint>
#include <filesystem>
#include <vector>

namespace snapscope {

inline constexpr uint64_t kDefaultCacheCapBytes = uint64_t{20} << 30;

// $SNAPSCOPE_CACHE_MAX ("50GB", "512MiB", bytes) if set and valid, else kDefaultCacheCapBytes.
uint64_t cache_cap_bytes();

// Marks `entry` as used now (its mtime), so eviction keeps it longest.
void mark_cache_entry_used(const std::filesystem::path& entry);

// Removes the least recently used entries of `root` until the entries total at most `cap` bytes.
// Never removes `keep` (the entry being opened) nor a conversion still in progress (a hidden
// staging directory). Returns the removed entries, oldest first.
std::vector<std::filesystem::path> evict_cache(const std::filesystem::path& root, uint64_t cap,
                                               const std::filesystem::path& keep);

}  // namespace snapscope
