// The conversion cache is not trusted either: another process (or user) may have replaced an
// entry by another snapshot's conversion, a symlink, or planted a FIFO in it. Before an entry is
// used it must be a real directory (never a symlink, which is never followed) holding regular
// files only, and its elements.db must record the size of the file being opened. An entry that
// does not verify is removed (a symlink is unlinked, not followed) and converted again.
#pragma once

#include <filesystem>
#include <string>

namespace snapscope {

// Empty when `entry` is missing or verifies for the snapshot file `source`; else the reason.
std::string cache_entry_problem(const std::filesystem::path& entry, const std::string& source);

// Removes `entry` when cache_entry_problem names one; true if it did.
bool discard_unverified_cache_entry(const std::filesystem::path& entry, const std::string& source);

}  // namespace snapscope
