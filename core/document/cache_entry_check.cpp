#include "core/document/cache_entry_check.h"

#include <sys/stat.h>
#include <unistd.h>

#include <fstream>
#include <system_error>

#include "core/convert/convert.h"
#include "core/convert/staging_dir.h"
#include "core/document/content_key.h"
#include "core/store/allocations_json/allocations_json.h"
#include "core/store/elements_db/elements_db_check.h"

namespace snapscope {
namespace fs = std::filesystem;

namespace {

// Every name in the entry is a regular file (lstat: a symlink, FIFO, device or directory is not).
std::string first_irregular_file(const fs::path& entry) {
  std::error_code error;
  for (const auto& item : fs::directory_iterator(entry, error)) {
    struct stat status {};
    if (::lstat(item.path().c_str(), &status) != 0 || !S_ISREG(status.st_mode))
      return item.path().filename().string() + " is not a regular file";
  }
  return error ? "cannot list it (" + error.message() + ")" : std::string();
}

// What the entry's source-key file says, or empty when it is missing or unreadable; a file too
// long to be one reads as empty too, unread (it is a regular file: checked before).
std::string recorded_source_key(const fs::path& entry) {
  constexpr std::streamsize kLongestName = 256;
  std::ifstream in(entry / kSourceKeyFileName, std::ios::binary);
  std::string text(static_cast<size_t>(kLongestName) + 1, '\0');
  in.read(text.data(), kLongestName + 1);
  text.resize(static_cast<size_t>(in.gcount()));
  return text.size() > static_cast<size_t>(kLongestName) ? std::string() : text;
}

std::string source_key_text(const fs::path& entry, const std::string& source) {
  return entry.filename().string() + "\n" + file_sample_key(source) + "\n";
}

}  // namespace

void record_cache_entry_source(const fs::path& staging, const fs::path& entry, const std::string& source) {
  const fs::path file = staging / kSourceKeyFileName;
  std::ofstream out(file, std::ios::binary | std::ios::trunc);
  out << source_key_text(entry, source);
  out.close();
  if (!out) throw OutputError(file.string() + ": cannot write the cache entry's source key");
}

std::string cache_entry_problem(const fs::path& entry, const std::string& source) {
  struct stat status {};
  if (::lstat(entry.c_str(), &status) != 0) return {};  // missing: converted afresh
  if (S_ISLNK(status.st_mode)) return "a symbolic link";
  if (!S_ISDIR(status.st_mode)) return "not a directory";
  if (std::string problem = first_irregular_file(entry); !problem.empty()) return problem;
  if (allocations_file_in(entry).empty()) return {};  // an empty or partial entry: converted into
  std::error_code error;
  const uint64_t size = fs::file_size(source, error);
  const std::optional<uint64_t> recorded = recorded_source_bytes((entry / kElementsDbName).string());
  if (error || !recorded || *recorded != size) return "converted from another file";
  if (recorded_source_key(entry) != source_key_text(entry, source))
    return "converted from another file's content";
  return {};
}

bool discard_unverified_cache_entry(const fs::path& entry, const std::string& source) {
  if (cache_entry_problem(entry, source).empty()) return false;
  struct stat status {};
  if (::lstat(entry.c_str(), &status) == 0 && !S_ISDIR(status.st_mode)) {
    ::unlink(entry.c_str());  // the link itself, never what it points at
  } else {
    std::error_code ignored;
    fs::remove_all(entry, ignored);  // does not follow symlinks inside
  }
  return true;
}

}  // namespace snapscope
