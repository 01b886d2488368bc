// The conversion cache: where a pickle's conversion lives (its content key and the formats'
// versions name the entry) and its housekeeping, a size cap with least-recently-used eviction.
// An entry's last use is its directory's modification time, which the viewer touches on every
// open. Clearing the whole cache is `rm -rf "${XDG_CACHE_HOME:-$HOME/.cache}/snapscope"` (README).
// Entries are verified before use (cache_entry_check.h).
#pragma once

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <vector>

namespace snapscope {

// cache_root() / "<file_content_key(file)>-v<json version>.<db version>": where a pickle's
// conversion lives. The key comes from the memo in cache_root() / kContentKeyMemoDir while the
// file is unchanged (content_key.h), so a second open does not hash the whole file.
inline constexpr const char* kContentKeyMemoDir = ".keys";  // hidden: never evicted as an entry
std::filesystem::path conversion_cache_dir(const std::filesystem::path& pickle,
                                           const std::atomic<bool>* cancel = nullptr);
// The same, only when the memo already knows the pickle's key (nothing is hashed).
std::optional<std::filesystem::path> remembered_conversion_cache_dir(const std::filesystem::path& pickle);

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
