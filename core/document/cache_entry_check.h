// The conversion cache is not trusted either: another process (or user) may have replaced an
// entry by another snapshot's conversion, a symlink, or planted a FIFO in it. Before an entry is
// used it must be a real directory (never a symlink, which is never followed) holding regular
// files only, its elements.db must record the size of the file being opened, and its source-key
// file must name the entry itself and the opened file's sample key (app_dirs.h). The entry's name
// is the content key of the pickle it was converted from, so another snapshot's entry moved or
// copied into place (even one of the same size) names another key; a tampered key memo that maps
// a file to another file's entry fails the sample key. An entry that does not verify is removed (a symlink is
// unlinked, not followed) and converted again.
#pragma once

#include <filesystem>
#include <string>

namespace snapscope {

// The file in a cache entry recording the entry's name (content key and format versions) and its
// source's sample key, one per line.
inline constexpr const char* kSourceKeyFileName = "source-key";

// Writes the source-key file of `entry`, converted from `source`, into `staging`, the directory
// about to be renamed to `entry`.
void record_cache_entry_source(const std::filesystem::path& staging, const std::filesystem::path& entry,
                               const std::string& source);

// Empty when `entry` is missing or verifies for the snapshot file `source`; else the reason.
std::string cache_entry_problem(const std::filesystem::path& entry, const std::string& source);

// Removes `entry` when cache_entry_problem names one; true if it did.
bool discard_unverified_cache_entry(const std::filesystem::path& entry, const std::string& source);

}  // namespace snapscope
