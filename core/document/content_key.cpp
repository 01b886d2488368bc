#include "core/document/content_key.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cctype>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <optional>
#include <span>
#include <system_error>
#include <thread>
#include <vector>

#include "core/snapshot/snapshot_reader.h"
#include "core/util/byte_source.h"

namespace snapscope {
namespace {

constexpr uint64_t kMul = 0x9e3779b97f4a7c15ull;

uint64_t mix(uint64_t h) {
  h ^= h >> 31;
  h *= 0xbf58476d1ce4e5b9ull;
  h ^= h >> 29;
  return h;
}

}  // namespace

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

namespace {

constexpr size_t kKeyChunk = size_t{8} << 20;  // chunks are chained: each one's hash seeds the next

std::string key_text(uint64_t hash, uint64_t total) {
  char text[64];
  std::snprintf(text, sizeof text, "%016llx-%llu", static_cast<unsigned long long>(hash),
                static_cast<unsigned long long>(total));
  return text;
}

// The key of a file that cannot be mapped (a special file), read with read(2).
std::string read_content_key(const std::filesystem::path& file, const std::atomic<bool>* cancel) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw InputError(file.string() + ": cannot open for reading");
  std::vector<char> buffer(kKeyChunk);
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
  return key_text(h, total);
}

// The same key, hashed in place from the file's mapping (FileSource::view, which releases the
// pages behind it and reports a file that changes size meanwhile): the copy out of the page
// cache was a fifth of hashing a pickle that was just read.
std::optional<std::string> mapped_content_key(const std::filesystem::path& file,
                                              const std::atomic<bool>* cancel) {
  std::optional<FileSource> source;
  try {
    source.emplace(file.string());
  } catch (const SourceError&) {
    return std::nullopt;  // read_content_key says why
  }
  if (!source->lends_bytes()) return std::nullopt;
  uint64_t h = 0;
  try {
    for (uint64_t at = 0; at < source->size(); at += kKeyChunk) {
      if (cancel && *cancel) throw HashCancelled();
      const std::span<const uint8_t> chunk = source->view(at, kKeyChunk);
      h = content_hash(chunk.data(), chunk.size(), h);
    }
    source->check_unchanged();
  } catch (const SourceError& error) {
    throw InputError(file.string() + ": " + error.what());
  }
  return key_text(h, source->size());
}

}  // namespace

std::string file_content_key(const std::filesystem::path& file, const std::atomic<bool>* cancel) {
  if (auto key = mapped_content_key(file, cancel)) return *key;
  return read_content_key(file, cancel);
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

// --- The memo of content keys -------------------------------------------------------------

namespace fs = std::filesystem;
namespace {

struct FileIdentity {
  uint64_t device = 0, inode = 0, size = 0;
  int64_t modified_ns = 0, changed_ns = 0;
  bool operator==(const FileIdentity&) const = default;
};

std::optional<FileIdentity> identity_of(const fs::path& file) {
  struct stat info {};
  if (::stat(file.c_str(), &info) != 0 || !S_ISREG(info.st_mode)) return std::nullopt;
  const auto ns = [](const timespec& time) { return int64_t{time.tv_sec} * 1'000'000'000 + time.tv_nsec; };
  return FileIdentity{static_cast<uint64_t>(info.st_dev), static_cast<uint64_t>(info.st_ino),
                      static_cast<uint64_t>(info.st_size), ns(info.st_mtim), ns(info.st_ctim)};
}

// One memo file per (device, inode): "size modified_ns changed_ns key".
fs::path memo_path(const fs::path& memo_dir, const FileIdentity& file) {
  return memo_dir / (std::to_string(file.device) + "-" + std::to_string(file.inode));
}

// A key is 16 hex digits, '-', the size in decimal: anything else in a memo is ignored.
bool well_formed_key(const std::string& key, uint64_t size) {
  if (key.size() < 18 || key[16] != '-') return false;
  for (size_t i = 0; i < 16; ++i) {
    if (!std::isxdigit(static_cast<unsigned char>(key[i]))) return false;
  }
  return key.substr(17) == std::to_string(size);
}

std::optional<std::string> remembered_key(const fs::path& memo, const FileIdentity& file) {
  std::ifstream in(memo);
  FileIdentity recorded = file;
  std::string key;
  if (!(in >> recorded.size >> recorded.modified_ns >> recorded.changed_ns >> key)) return std::nullopt;
  if (recorded != file || !well_formed_key(key, file.size)) return std::nullopt;
  return key;
}

// Written beside and renamed into place, so a reader never sees half a memo.
void remember_key(const fs::path& memo, const FileIdentity& file, const std::string& key) {
  std::error_code ec;
  fs::create_directories(memo.parent_path(), ec);
  const size_t thread = std::hash<std::thread::id>{}(std::this_thread::get_id());
  const fs::path staged = memo.string() + ".tmp-" + std::to_string(::getpid()) + "-" + std::to_string(thread);
  {
    std::ofstream out(staged, std::ios::trunc);
    out << file.size << ' ' << file.modified_ns << ' ' << file.changed_ns << ' ' << key << '\n';
    if (!out) return;
  }
  fs::rename(staged, memo, ec);
  if (ec) fs::remove(staged, ec);
}

}  // namespace

std::optional<std::string> remembered_content_key(const fs::path& file, const fs::path& memo_dir) {
  const std::optional<FileIdentity> identity = identity_of(file);
  if (!identity) return std::nullopt;
  return remembered_key(memo_path(memo_dir, *identity), *identity);
}

std::string memoized_content_key(const fs::path& file, const fs::path& memo_dir,
                                 const std::atomic<bool>* cancel) {
  const std::optional<FileIdentity> before = identity_of(file);
  if (!before) return file_content_key(file, cancel);  // not a regular file: let the hash say what is wrong
  const fs::path memo = memo_path(memo_dir, *before);
  if (auto key = remembered_key(memo, *before)) return *key;
  std::string key = file_content_key(file, cancel);
  // Written only if the file did not change while it was hashed.
  if (identity_of(file) == before) remember_key(memo, *before, key);
  return key;
}

}  // namespace snapscope
