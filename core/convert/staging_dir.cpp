#include "core/convert/staging_dir.h"

#include <fcntl.h>
#include <stdio.h>  // renameat2 (glibc >= 2.28)

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include "core/convert/signal_cleanup.h"
#include "core/store/allocations_json/allocations_json.h"

namespace snapscope {
namespace fs = std::filesystem;
namespace {

fs::path normalized(fs::path target) {
  target = target.lexically_normal();
  if (!target.has_filename()) target = target.parent_path();  // "out/" -> "out"
  return target;
}

fs::path parent_of(const fs::path& target) {
  return target.has_parent_path() ? target.parent_path() : fs::path(".");
}

[[noreturn]] void fail(const fs::path& path, const std::string& reason) {
  throw OutputError(path.string() + ": " + reason);
}

bool looks_like_output(const fs::path& dir) {
  std::error_code ec;
  if (fs::is_empty(dir, ec)) return true;
  return fs::exists(dir / "elements.db", ec) || !allocations_file_in(dir).empty();
}

fs::path make_staging_dir(const fs::path& target) {
  std::string pattern = (parent_of(target) / ("." + target.filename().string() + ".tmp-XXXXXX")).string();
  std::vector<char> buffer(pattern.begin(), pattern.end());
  buffer.push_back('\0');
  if (!::mkdtemp(buffer.data()))
    fail(target, std::string("cannot create temporary directory: ") + std::strerror(errno));
  return fs::path(buffer.data());
}

}  // namespace

void StagingDirectory::check_target(const fs::path& raw_target, bool replace_existing) {
  const fs::path target = normalized(raw_target);
  std::error_code ec;
  if (!fs::is_directory(parent_of(target), ec)) fail(target, "parent directory does not exist");
  const fs::file_status status = fs::symlink_status(target, ec);
  if (!fs::exists(status)) return;
  if (!replace_existing) fail(target, "already exists (use --force to replace it)");
  if (!fs::is_directory(status)) fail(target, "exists and is not a directory; refusing to replace it");
  if (!looks_like_output(target)) {
    fail(target, "exists and is not a snapscope output directory; refusing to replace it");
  }
}

StagingDirectory::StagingDirectory(fs::path target, bool replace_existing)
    : target_(normalized(std::move(target))), replace_existing_(replace_existing) {
  check_target(target_, replace_existing_);
  staging_ = make_staging_dir(target_);
  watch_slot_ = signal_cleanup::watch(staging_);
}

StagingDirectory::~StagingDirectory() {
  if (committed_) return;
  std::error_code ignored;  // best effort: a destructor must not throw
  fs::remove_all(staging_, ignored);
  signal_cleanup::unwatch(std::exchange(watch_slot_, -1));
}

void StagingDirectory::retarget(fs::path target) {
  fs::path normal = normalized(std::move(target));
  if (parent_of(normal) != parent_of(target_)) fail(normal, "not beside the staging directory");
  check_target(normal, replace_existing_);
  target_ = std::move(normal);
}

void StagingDirectory::commit() {
  check_target(target_, replace_existing_);  // it may have appeared while we were converting
  const std::string from = staging_.string();
  const std::string to = target_.string();
  if (::renameat2(AT_FDCWD, from.c_str(), AT_FDCWD, to.c_str(), RENAME_NOREPLACE) == 0) {
    committed_ = true;
    signal_cleanup::unwatch(std::exchange(watch_slot_, -1));
    return;
  }
  if (errno != EEXIST && errno != ENOTEMPTY)
    fail(target_, std::string("cannot move output into place: ") + std::strerror(errno));
  // The target exists and may be replaced: swap atomically, then delete the old output,
  // which now sits at the staging path.
  if (::renameat2(AT_FDCWD, from.c_str(), AT_FDCWD, to.c_str(), RENAME_EXCHANGE) != 0) {
    fail(target_, std::string("cannot replace existing output: ") + std::strerror(errno));
  }
  committed_ = true;
  std::error_code ec;
  fs::remove_all(staging_, ec);
  signal_cleanup::unwatch(std::exchange(watch_slot_, -1));
  if (ec) fail(staging_, "converted, but could not delete the replaced output: " + ec.message());
}

}  // namespace snapscope
