// Sequential byte sources for the streaming readers: a file read in chunks, an in-memory
// buffer (tests), and transparent gzip on top of either. One virtual call per chunk, not per byte.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace snapscope {

class GuardedMapping;

// I/O or decompression failure; what() is the bare reason (callers prefix the file name).
class SourceError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class ByteSource {
 public:
  virtual ~ByteSource() = default;
  // Fills up to dst.size() bytes; returns 0 only at end of input.
  virtual size_t read(std::span<uint8_t> dst) = 0;
  // Bytes the stream still holds, when known without reading it (plain files); lets
  // parsers reject absurd declared lengths before allocating anything.
  virtual std::optional<uint64_t> remaining() const { return std::nullopt; }
  // Passes over the next `n` bytes (the parallel reader's chunks, parsed elsewhere). Throws
  // SourceError when fewer remain.
  virtual void skip(uint64_t n);

  // Random access, for the parallel reader's scan and chunk parsers (plain files and memory; not
  // gzip). read_at is thread-safe and independent of read(): it fills `dst` from stream offset
  // `offset` (the file's own offsets) and returns fewer bytes only at the end.
  virtual bool has_random_access() const { return false; }
  virtual size_t read_at(uint64_t offset, std::span<uint8_t> dst) const;

  // Reading in place, for a source that holds its bytes in memory (a mapped file): view() hands
  // out the stream's bytes from `offset` on, `wanted` of them or fewer at the end, valid as long
  // as the source, and counts the stream read up to their end. The reader asks for nothing
  // before its previous view's start again (the source may let those pages go). Sources that
  // do not lend their bytes (lends_bytes() false) are read with read().
  virtual bool lends_bytes() const { return false; }
  virtual std::span<const uint8_t> view(uint64_t offset, size_t wanted);
  // Throws SourceError when bytes lent by view() may not have been the file's (it shrank while
  // they were read, and the reader saw zeros; or it changed size since). Call it before
  // trusting a parse of lent bytes.
  virtual void check_unchanged() const {}
  // The whole stream in memory, for readers with random access (the parallel reader's scan and
  // chunk parsers) to read in place, from any thread; empty where it is not (then read_at).
  virtual std::span<const uint8_t> bytes_in_place() const { return {}; }
};

class MemorySource final : public ByteSource {
 public:
  explicit MemorySource(std::string_view bytes) : bytes_(bytes) {}
  size_t read(std::span<uint8_t> dst) override;
  std::optional<uint64_t> remaining() const override { return bytes_.size() - pos_; }
  void skip(uint64_t n) override;
  bool has_random_access() const override { return true; }
  size_t read_at(uint64_t offset, std::span<uint8_t> dst) const override;

 private:
  std::string_view bytes_;
  size_t pos_ = 0;
};

// Called with the number of file bytes consumed so far, every few MB.
using ProgressFn = std::function<void(uint64_t bytes_read)>;

// A regular file: read() copies with pread(2); view() lends the bytes of a mapping of the file
// (GuardedMapping), where it could be mapped.
class FileSource final : public ByteSource {
 public:
  FileSource(const std::string& path, ProgressFn on_progress = {});
  ~FileSource() override;
  FileSource(const FileSource&) = delete;
  FileSource& operator=(const FileSource&) = delete;

  size_t read(std::span<uint8_t> dst) override;
  std::optional<uint64_t> remaining() const override { return size_ - consumed_; }
  void skip(uint64_t n) override;
  bool has_random_access() const override { return true; }
  size_t read_at(uint64_t offset, std::span<uint8_t> dst) const override;
  bool lends_bytes() const override;
  std::span<const uint8_t> view(uint64_t offset, size_t wanted) override;
  void check_unchanged() const override;
  std::span<const uint8_t> bytes_in_place() const override;
  uint64_t size() const { return size_; }

 private:
  void report_progress(bool at_end);
  void check_size_at_end() const;

  int fd_ = -1;
  uint64_t size_ = 0;
  uint64_t consumed_ = 0;
  uint64_t next_report_ = 0;
  ProgressFn on_progress_;
  std::unique_ptr<GuardedMapping> mapping_;
};

// Inflates a gzip stream (one or more concatenated members) read from `compressed`.
class GzipSource final : public ByteSource {
 public:
  explicit GzipSource(std::unique_ptr<ByteSource> compressed);
  ~GzipSource() override;
  GzipSource(const GzipSource&) = delete;
  GzipSource& operator=(const GzipSource&) = delete;

  size_t read(std::span<uint8_t> dst) override;

 private:
  struct State;
  std::unique_ptr<ByteSource> compressed_;
  std::unique_ptr<State> state_;
};

inline bool has_gzip_magic(std::span<const uint8_t> head) {
  return head.size() >= 2 && head[0] == 0x1f && head[1] == 0x8b;
}

// `source`, inflated transparently when it starts with the gzip magic bytes.
std::unique_ptr<ByteSource> inflate_if_gzip(std::unique_ptr<ByteSource> source);

// Opens `path`, inflating it transparently when it starts with the gzip magic bytes.
std::unique_ptr<ByteSource> open_file_source(const std::string& path, ProgressFn on_progress = {});

}  // namespace snapscope
