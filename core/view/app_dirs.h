// Where the viewer keeps its files, following the XDG base directory spec, and the
// content-hash key that lets a converted pickle be reused whatever its name or location.
#pragma once

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>

namespace snapscope {

// $XDG_CACHE_HOME/snapscope, else $HOME/.cache/snapscope (relative XDG values are ignored, per spec).
std::filesystem::path cache_root();
// $XDG_CONFIG_HOME/snapscope, else $HOME/.config/snapscope.
std::filesystem::path config_root();

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

// cache_root() / "<file_content_key(file)>-v<json version>.<db version>": where a pickle's
// conversion lives. The key comes from the memo in cache_root() / kContentKeyMemoDir while the
// file is unchanged (content_key_memo.h), so a second open does not hash the whole file.
inline constexpr const char* kContentKeyMemoDir = ".keys";  // hidden: never evicted as an entry
std::filesystem::path conversion_cache_dir(const std::filesystem::path& pickle,
                                           const std::atomic<bool>* cancel = nullptr);
// The same, only when the memo already knows the pickle's key (nothing is hashed).
std::optional<std::filesystem::path> remembered_conversion_cache_dir(const std::filesystem::path& pickle);

}  // namespace snapscope
