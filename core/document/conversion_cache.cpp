// The conversion cache's entries by content key, and its LRU size cap.
#include "core/document/conversion_cache.h"

#include <algorithm>
#include <cstdlib>
#include <system_error>

#include "core/document/content_key.h"
#include "core/document/folders.h"
#include "core/store/allocations_json/allocations_json.h"
#include "core/store/elements_db/elements_db.h"
#include "core/util/byte_size.h"

namespace snapscope {
namespace fs = std::filesystem;

namespace {

// The output format versions are part of the name: a build that writes newer formats converts
// again instead of failing on a cached directory it cannot read.
fs::path cache_dir_for_key(const std::string& key) {
  return cache_root() /
         (key + "-v" + std::to_string(kAllocationsJsonVersion) + "." + std::to_string(kElementsDbVersion));
}

}  // namespace

fs::path conversion_cache_dir(const fs::path& pickle, const std::atomic<bool>* cancel) {
  return cache_dir_for_key(memoized_content_key(pickle, cache_root() / kContentKeyMemoDir, cancel));
}

std::optional<fs::path> remembered_conversion_cache_dir(const fs::path& pickle) {
  const std::optional<std::string> key = remembered_content_key(pickle, cache_root() / kContentKeyMemoDir);
  if (!key) return std::nullopt;
  return cache_dir_for_key(*key);
}

namespace {

struct Entry {
  fs::path path;
  fs::file_time_type used;
  uint64_t bytes = 0;
};

uint64_t directory_bytes(const fs::path& dir) {
  uint64_t total = 0;
  std::error_code ec;
  for (const auto& file : fs::recursive_directory_iterator(dir, ec)) {
    if (file.is_regular_file(ec)) total += file.file_size(ec);
  }
  return total;
}

std::vector<Entry> cache_entries(const fs::path& root) {
  std::vector<Entry> entries;
  std::error_code ec;
  for (const auto& item : fs::directory_iterator(root, ec)) {
    const std::string name = item.path().filename().string();
    if (!item.is_directory(ec) || name.starts_with(".")) continue;  // staging directories are hidden
    entries.push_back({item.path(), item.last_write_time(ec), directory_bytes(item.path())});
  }
  std::sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) { return a.used < b.used; });
  return entries;
}

}  // namespace

uint64_t cache_cap_bytes() {
  const char* value = std::getenv("SNAPSCOPE_CACHE_MAX");
  if (value == nullptr) return kDefaultCacheCapBytes;
  return parse_byte_size(value).value_or(kDefaultCacheCapBytes);
}

void mark_cache_entry_used(const fs::path& entry) {
  std::error_code ec;  // best effort: a read-only cache still opens
  fs::last_write_time(entry, fs::file_time_type::clock::now(), ec);
}

std::vector<fs::path> evict_cache(const fs::path& root, uint64_t cap, const fs::path& keep) {
  std::vector<Entry> entries = cache_entries(root);
  uint64_t total = 0;
  for (const Entry& entry : entries) total += entry.bytes;
  std::vector<fs::path> removed;
  std::error_code ec;
  for (const Entry& entry : entries) {
    if (total <= cap) break;
    if (fs::equivalent(entry.path, keep, ec)) continue;
    fs::remove_all(entry.path, ec);
    if (ec) continue;
    total -= entry.bytes;
    removed.push_back(entry.path);
  }
  return removed;
}

}  // namespace snapscope
