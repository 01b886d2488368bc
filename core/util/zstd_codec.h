// Zstandard for the converter's layout file (allocations.json.zst): an encoder that writes each
// piece of text as one frame recording its size, and a decoder with a size limit (the files are
// untrusted) that decodes such frames on all cores into one buffer allocated once.
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace snapscope {

// True when `bytes` starts with a Zstandard frame's magic number.
bool starts_zstd_frame(std::string_view bytes);

class ZstdEncoder {
 public:
  ZstdEncoder();  // level 1: at ~500 MB/s it hides behind the database writer
  ~ZstdEncoder();
  ZstdEncoder(const ZstdEncoder&) = delete;
  ZstdEncoder& operator=(const ZstdEncoder&) = delete;

  // Appends `input` to `output` as one frame with its content size and checksum. Frames are
  // independent, so a reader can decode them in parallel (a few MiB each loses little ratio:
  // level 1 looks back 512 KiB at most).
  void compress_frame(std::string_view input, std::string& output);

 private:
  struct Context;
  std::unique_ptr<Context> context_;
};

// The concatenated content of the frames in `compressed`, or the reason it cannot be had
// (corrupt, truncated, trailing bytes, more than `max_bytes` of content). Frames that state
// their content size (ZstdEncoder's) are decoded in parallel straight into place; others (e.g.
// the zstd tool's, from a pipe) are streamed into a growing buffer.
class ZstdDecoded {
 public:
  std::string_view content() const { return {bytes_.get(), size_}; }
  std::optional<std::string> error;

 private:
  friend ZstdDecoded zstd_decompress(std::string_view compressed, size_t max_bytes);
  std::unique_ptr<char[]> bytes_;  // not zero-filled: every byte is written by the decoder
  size_t size_ = 0;
};
ZstdDecoded zstd_decompress(std::string_view compressed, size_t max_bytes);

}  // namespace snapscope
