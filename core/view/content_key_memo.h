// Remembers each pickle's content key (file_content_key) by the file's identity and change
// times, so opening a converted multi-GB pickle again does not read all of it to hash it (0.3 s
// per GB from the page cache, seconds from disk). A file is the same when its device, inode,
// size, modification time and status-change time (which no user call can set back) all match;
// anything else hashes the file again.
#pragma once

#include <atomic>
#include <filesystem>
#include <optional>
#include <string>

namespace snapscope {

// file_content_key(file), from the memo in `memo_dir` when it still describes the file;
// otherwise hashed, and the memo written (best effort: an unwritable memo only costs the hash).
// Throws InputError like file_content_key.
// `cancel` as in file_content_key.
std::string memoized_content_key(const std::filesystem::path& file, const std::filesystem::path& memo_dir,
                                 const std::atomic<bool>* cancel = nullptr);
// The memo's key for `file` when it still describes the file; nothing (and no hashing) otherwise.
std::optional<std::string> remembered_content_key(const std::filesystem::path& file,
                                                  const std::filesystem::path& memo_dir);

}  // namespace snapscope
