// Makes a converter's output directory appear all at once or not at all: everything is
// written into a temporary directory beside the target (same filesystem) and renamed into
// place on success. If commit() is never reached the temporary directory is removed.
#pragma once

#include <filesystem>
#include <stdexcept>

namespace snapscope {

// A problem with the output location or with writing it. what(): "<path>: <reason>".
class OutputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class StagingDirectory {
 public:
  // Throws OutputError if the target's parent is missing, or the target exists and
  // `replace_existing` is false or it is not something we may replace (see may_replace).
  StagingDirectory(std::filesystem::path target, bool replace_existing);
  ~StagingDirectory();
  StagingDirectory(const StagingDirectory&) = delete;
  StagingDirectory& operator=(const StagingDirectory&) = delete;

  const std::filesystem::path& path() const { return staging_; }
  const std::filesystem::path& target() const { return target_; }
  void commit();  // atomic rename; with replace_existing an atomic swap, then the old one is deleted
  // Renames into `target` instead at commit(); it must share the first target's parent directory
  // (the staging directory's filesystem). OutputError as the constructor's checks.
  void retarget(std::filesystem::path target);

  // Fails unless `target` is absent, or replaceable: an empty directory or an earlier
  // conversion (holding elements.db or allocations.json), never an unrelated directory or file.
  static void check_target(const std::filesystem::path& target, bool replace_existing);

 private:
  std::filesystem::path target_;
  std::filesystem::path staging_;
  bool replace_existing_;
  bool committed_ = false;
  int watch_slot_ = -1;  // signal_cleanup's, while the staging directory may be removed on a signal
};

}  // namespace snapscope
