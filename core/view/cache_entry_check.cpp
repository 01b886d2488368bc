#include "core/view/cache_entry_check.h"

#include <sys/stat.h>
#include <unistd.h>

#include <system_error>

#include "core/convert/convert.h"
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

}  // namespace

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
