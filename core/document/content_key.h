// The content key that lets a converted pickle be reused whatever its name or location: a hash
// of the whole file, remembered per file so that opening it again does not read it all, and a
// cheap sample key that tells a cache entry's source from another file of the same size.
// The memo remembers each pickle's content key by the file's identity and change
// times, so opening a converted multi-GB pickle again does not read all of it to hash it (0.3 s
// per GB from the page cache, seconds from disk). A file is the same when its device, inode,
// size, modification time and status-change time (which no user call can set back) all match;
// anything else hashes the file again.
#pragma once

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>

namespace snapscope {

// 64-bit content hash of a whole file, as 16 hex digits followed by "-<size>". Throws InputError.
// With `cancel` set (checked between 8 MB chunks) it throws HashCancelled instead.
std::string file_content_key(const std::filesystem::path& file, const std::atomic<bool>* cancel = nullptr);
struct HashCancelled : std::runtime_error {
  HashCancelled() : std::runtime_error("hashing cancelled") {}
};
// A cheap fingerprint of a file: the hash of its size and of sampled windows (its first and last
// 64 KiB and 16 windows of 4 KiB spread between), read in well under a millisecond per GB. Not a
// content key: it tells a cache entry's source from another file of the same size that a
// tampered key memo maps to it. Throws InputError.
std::string file_sample_key(const std::filesystem::path& file);
// Hash of a byte buffer; the function file_content_key applies to the file's contents.
uint64_t content_hash(const void* data, size_t size, uint64_t seed);

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
