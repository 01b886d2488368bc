// Zstandard for the converter's layout file (allocations.json.zst): a streaming encoder for
// BufferedFile and a whole-buffer decoder with a size limit, since the files are untrusted.
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

  // Appends the compressed form of `input` to `output`; `last` ends the frame.
  void compress(std::string_view input, bool last, std::string& output);

 private:
  struct Context;
  std::unique_ptr<Context> context_;
};

// The concatenated content of the frames in `compressed`, or the reason it cannot be had
// (corrupt, truncated, trailing bytes, more than `max_bytes` of content).
struct ZstdDecoded {
  std::string content;
  std::optional<std::string> error;
};
ZstdDecoded zstd_decompress(std::string_view compressed, size_t max_bytes);

}  // namespace snapscope
