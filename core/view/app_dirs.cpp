#include "core/view/app_dirs.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <vector>

#include "core/snapshot/snapshot_reader.h"
#include "core/store/allocations_json/allocations_json.h"
#include "core/store/elements_db/elements_db.h"
#include "core/view/content_key_memo.h"

namespace snapscope {
namespace {

std::filesystem::path xdg_dir(const char* variable, const char* home_fallback) {
  const char* value = std::getenv(variable);
  if (value != nullptr && value[0] == '/') return std::filesystem::path(value) / "snapscope";
  const char* home = std::getenv("HOME");
  const std::filesystem::path base = (home != nullptr && home[0] != '\0') ? home : "/tmp";
  return base / home_fallback / "snapscope";
}

constexpr uint64_t kMul = 0x9e3779b97f4a7c15ull;

uint64_t mix(uint64_t h) {
  h ^= h >> 31;
  h *= 0xbf58476d1ce4e5b9ull;
  h ^= h >> 29;
  return h;
}

}  // namespace

std::filesystem::path cache_root() { return xdg_dir("XDG_CACHE_HOME", ".cache"); }
std::filesystem::path config_root() { return xdg_dir("XDG_CONFIG_HOME", ".config"); }

uint64_t content_hash(const void* data, size_t size, uint64_t seed) {
  // Four independent lanes over 8-byte words keep the multiplier pipeline busy (GB/s), which
  // matters because every open of a multi-GB pickle hashes it.
  const auto* bytes = static_cast<const unsigned char*>(data);
  uint64_t lanes[4] = {seed ^ 1, seed ^ 2, seed ^ 3, seed ^ 4};
  size_t i = 0;
  for (; i + 32 <= size; i += 32) {
    for (int lane = 0; lane < 4; ++lane) {
      uint64_t word;
      std::memcpy(&word, bytes + i + 8 * lane, 8);
      lanes[lane] = (lanes[lane] ^ word) * kMul;
      lanes[lane] ^= lanes[lane] >> 32;
    }
  }
  uint64_t h = mix(lanes[0]) ^ mix(lanes[1] + 1) ^ mix(lanes[2] + 2) ^ mix(lanes[3] + 3);
  for (; i < size; ++i) h = (h ^ bytes[i]) * kMul;
  return mix(h ^ size);
}

std::string file_content_key(const std::filesystem::path& file, const std::atomic<bool>* cancel) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw InputError(file.string() + ": cannot open for reading");
  std::vector<char> buffer(8 << 20);  // chunks are chained: each one's hash seeds the next
  uint64_t h = 0;
  uint64_t total = 0;
  while (in) {
    if (cancel && *cancel) throw HashCancelled();
    in.read(buffer.data(), static_cast<std::streamsize>(buffer.size()));
    const auto got = static_cast<size_t>(in.gcount());
    if (got == 0) break;
    h = content_hash(buffer.data(), got, h);
    total += got;
  }
  if (in.bad()) throw InputError(file.string() + ": read error");
  char text[64];
  std::snprintf(text, sizeof text, "%016llx-%llu", static_cast<unsigned long long>(h),
                static_cast<unsigned long long>(total));
  return text;
}

std::string file_sample_key(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::error_code error;
  const uint64_t size = std::filesystem::file_size(file, error);
  if (!in || error) throw InputError(file.string() + ": cannot open for reading");
  constexpr uint64_t kEnd = 64 << 10, kWindow = 4 << 10, kWindows = 16;
  std::vector<std::pair<uint64_t, uint64_t>> windows = {{0, std::min(size, kEnd)}};
  for (uint64_t i = 1; i <= kWindows; ++i) windows.emplace_back(size / (kWindows + 1) * i, kWindow);
  windows.emplace_back(size > kEnd ? size - kEnd : 0, kEnd);
  std::vector<char> buffer(kEnd);
  uint64_t h = size;
  for (const auto& [offset, length] : windows) {
    in.clear();
    in.seekg(static_cast<std::streamoff>(offset));
    in.read(buffer.data(), static_cast<std::streamsize>(std::min(length, size - std::min(size, offset))));
    h = content_hash(buffer.data(), static_cast<size_t>(in.gcount()), h);
  }
  char text[32];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(h));
  return text;
}

namespace {

// The output format versions are part of the name: a build that writes newer formats converts
// again instead of failing on a cached directory it cannot read.
std::filesystem::path cache_dir_for_key(const std::string& key) {
  return cache_root() /
         (key + "-v" + std::to_string(kAllocationsJsonVersion) + "." + std::to_string(kElementsDbVersion));
}

}  // namespace

std::filesystem::path conversion_cache_dir(const std::filesystem::path& pickle,
                                           const std::atomic<bool>* cancel) {
  return cache_dir_for_key(memoized_content_key(pickle, cache_root() / kContentKeyMemoDir, cancel));
}

std::optional<std::filesystem::path> remembered_conversion_cache_dir(const std::filesystem::path& pickle) {
  const std::optional<std::string> key = remembered_content_key(pickle, cache_root() / kContentKeyMemoDir);
  if (!key) return std::nullopt;
  return cache_dir_for_key(*key);
}

}  // namespace snapscope
