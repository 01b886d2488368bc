#include "core/view/content_key_memo.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cctype>
#include <cstdint>
#include <fstream>
#include <functional>
#include <optional>
#include <system_error>
#include <thread>

#include "core/snapshot/snapshot_reader.h"
#include "core/view/app_dirs.h"

namespace snapscope {
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
