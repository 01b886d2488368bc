// Text written to a file through a large buffer (exports and allocations.json write hundreds of
// MB in small pieces). Every failure throws std::runtime_error("<path>: <what>: <reason>").
// Create::Replace goes through OutputFile (core/util/output_file.h): the file appears whole at
// close(), or not at all if the BufferedFile is destroyed first.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

namespace snapscope {

class OutputFile;
class ZstdEncoder;

class BufferedFile {
 public:
  enum class Create : uint8_t {
    Replace,    // the user's output: whole or not at all (OutputFile)
    Exclusive,  // fail if the file exists (a staging directory's own files)
  };
  enum class Encoding : uint8_t {
    Plain,
    Zstd,  // Zstandard frames of 8 MiB of text each (level 1, sizes and checksums recorded)
  };
  explicit BufferedFile(std::string path, Create mode = Create::Replace, Encoding encoding = Encoding::Plain);
  ~BufferedFile();
  BufferedFile(const BufferedFile&) = delete;
  BufferedFile& operator=(const BufferedFile&) = delete;

  void append(std::string_view text) {
    buffer_.append(text);
    flush_if_full();
  }
  // One character, without the flush check: for loops that call flush_if_full() once at the end.
  void append_char(char c) { buffer_.push_back(c); }
  void flush_if_full() {
    if (buffer_.size() >= flush_bytes_) flush();
  }

  BufferedFile& operator<<(std::string_view text) {
    append(text);
    return *this;
  }
  BufferedFile& operator<<(char c) {
    append_char(c);
    return *this;
  }
  BufferedFile& operator<<(uint64_t value);  // decimal
  BufferedFile& operator<<(int64_t value);

  void close();  // flushes and closes; throws on any write error
  const std::string& path() const { return path_; }

 private:
  static constexpr size_t kFlushBytes = size_t{1} << 20;
  // Encoding::Zstd writes each flush as one frame: 8 MiB of text per frame (ZstdEncoder).
  static constexpr size_t kZstdFrameBytes = size_t{8} << 20;
  void flush(bool last = false);
  void write(std::string_view bytes);

  std::string path_;
  int fd_ = -1;                         // Create::Exclusive
  std::unique_ptr<OutputFile> output_;  // Create::Replace
  std::string buffer_;
  std::unique_ptr<ZstdEncoder> zstd_;  // null for Encoding::Plain
  std::string compressed_;             // the encoder's output, reused between flushes
  size_t flush_bytes_ = kFlushBytes;
  bool wrote_frame_ = false;
};

}  // namespace snapscope
