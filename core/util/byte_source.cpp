#include "core/util/byte_source.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>

#include "core/util/guarded_mapping.h"
#include "core/util/regular_file.h"

namespace snapscope {

namespace {
constexpr uint64_t kProgressStep = 4u << 20;
constexpr size_t kInflateChunk = 256u << 10;
}  // namespace

size_t MemorySource::read(std::span<uint8_t> dst) {
  size_t n = std::min(dst.size(), bytes_.size() - pos_);
  std::memcpy(dst.data(), bytes_.data() + pos_, n);
  pos_ += n;
  return n;
}

void ByteSource::skip(uint64_t n) {
  std::array<uint8_t, 64 << 10> scratch;
  while (n > 0) {
    const size_t got =
        read(std::span(scratch.data(), static_cast<size_t>(std::min<uint64_t>(n, scratch.size()))));
    if (got == 0) throw SourceError("unexpected end of input");
    n -= got;
  }
}

size_t ByteSource::read_at(uint64_t, std::span<uint8_t>) const {
  throw SourceError("this input cannot be read out of order");
}

std::span<const uint8_t> ByteSource::view(uint64_t, size_t) {
  throw SourceError("this input cannot be read in place");
}

void MemorySource::skip(uint64_t n) {
  if (n > bytes_.size() - pos_) throw SourceError("unexpected end of input");
  pos_ += static_cast<size_t>(n);
}

size_t MemorySource::read_at(uint64_t offset, std::span<uint8_t> dst) const {
  if (offset >= bytes_.size()) return 0;
  const size_t n = std::min<size_t>(dst.size(), bytes_.size() - static_cast<size_t>(offset));
  std::memcpy(dst.data(), bytes_.data() + offset, n);
  return n;
}

FileSource::FileSource(const std::string& path, ProgressFn on_progress)
    : on_progress_(std::move(on_progress)) {
  std::string error;
  fd_ = open_regular_file(path, error);  // a FIFO is refused, never waited on
  if (fd_ < 0) throw SourceError(error.starts_with("not a") ? error : "cannot open: " + error);
  struct stat st {};
  if (::fstat(fd_, &st) != 0) {
    ::close(fd_);
    throw SourceError("cannot open: " + std::string(std::strerror(errno)));
  }
  size_ = static_cast<uint64_t>(st.st_size);
#ifdef POSIX_FADV_SEQUENTIAL
  ::posix_fadvise(fd_, 0, 0, POSIX_FADV_SEQUENTIAL);
#endif
  mapping_ = std::make_unique<GuardedMapping>(fd_, size_);
}

FileSource::~FileSource() {
  if (fd_ >= 0) ::close(fd_);  // the mapping holds its own reference to the file
}

size_t FileSource::read(std::span<uint8_t> dst) {
  for (;;) {
    // At the stream's position, which view() and skip() move too.
    ssize_t got = ::pread(fd_, dst.data(), dst.size(), static_cast<off_t>(consumed_));
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) throw SourceError(std::string("read failed: ") + std::strerror(errno));
    consumed_ += static_cast<uint64_t>(got);
    // Another process truncating or rewriting the file under us: stop with a clear error.
    if (got == 0 && consumed_ < size_) throw SourceError("the file shrank while it was being read");
    if (consumed_ > size_) throw SourceError("the file grew while it was being read");
    report_progress(got == 0);
    return static_cast<size_t>(got);
  }
}

void FileSource::report_progress(bool at_end) {
  if (on_progress_ && (consumed_ >= next_report_ || at_end)) {
    next_report_ = consumed_ + kProgressStep;
    on_progress_(consumed_);
  }
}

void FileSource::skip(uint64_t n) {
  if (n > size_ - consumed_) throw SourceError("the file shrank while it was being read");
  consumed_ += n;
  report_progress(false);
}

bool FileSource::lends_bytes() const { return mapping_ && mapping_->valid(); }

std::span<const uint8_t> FileSource::view(uint64_t offset, size_t wanted) {
  if (!lends_bytes()) return ByteSource::view(offset, wanted);
  check_unchanged();
  const uint64_t begin = std::min(offset, size_);
  const size_t n = static_cast<size_t>(std::min<uint64_t>(wanted, size_ - begin));
  consumed_ = std::max(consumed_, begin + n);
  mapping_->release_before(begin);  // the reader never looks back
  report_progress(consumed_ == size_);
  return {mapping_->data() + begin, n};
}

std::span<const uint8_t> FileSource::bytes_in_place() const {
  if (!lends_bytes()) return {};
  return {mapping_->data(), static_cast<size_t>(size_)};
}

void FileSource::check_unchanged() const {
  if (!lends_bytes()) return;
  if (mapping_->shrank()) throw SourceError("the file shrank while it was being read");
  check_size_at_end();
}

// What read() finds at the end: a file that changed size since it was opened.
void FileSource::check_size_at_end() const {
  struct stat st {};
  if (::fstat(fd_, &st) != 0) throw SourceError(std::string("read failed: ") + std::strerror(errno));
  const auto now = static_cast<uint64_t>(st.st_size);
  if (now < size_) throw SourceError("the file shrank while it was being read");
  if (now > size_) throw SourceError("the file grew while it was being read");
}

size_t FileSource::read_at(uint64_t offset, std::span<uint8_t> dst) const {
  size_t filled = 0;
  while (filled < dst.size()) {
    const ssize_t got =
        ::pread(fd_, dst.data() + filled, dst.size() - filled, static_cast<off_t>(offset + filled));
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) throw SourceError(std::string("read failed: ") + std::strerror(errno));
    if (got == 0) break;
    filled += static_cast<size_t>(got);
  }
  return filled;
}

struct GzipSource::State {
  z_stream zs{};
  std::vector<uint8_t> in = std::vector<uint8_t>(kInflateChunk);
  bool input_done = false;
  bool member_done = false;
};

GzipSource::GzipSource(std::unique_ptr<ByteSource> compressed)
    : compressed_(std::move(compressed)), state_(std::make_unique<State>()) {
  // 16 + MAX_WBITS: expect a gzip header and trailer (checked CRC).
  if (inflateInit2(&state_->zs, 16 + MAX_WBITS) != Z_OK) throw SourceError("zlib init failed");
}

GzipSource::~GzipSource() { inflateEnd(&state_->zs); }

size_t GzipSource::read(std::span<uint8_t> dst) {
  z_stream& zs = state_->zs;
  zs.next_out = dst.data();
  zs.avail_out = static_cast<uInt>(std::min<size_t>(dst.size(), 1u << 30));
  while (zs.avail_out > 0) {
    if (zs.avail_in == 0 && !state_->input_done) {
      size_t got = compressed_->read(state_->in);
      state_->input_done = got == 0;
      zs.next_in = state_->in.data();
      zs.avail_in = static_cast<uInt>(got);
    }
    if (state_->member_done) {
      if (zs.avail_in == 0) break;  // clean end after a complete member
      inflateReset(&zs);            // another concatenated member follows
      state_->member_done = false;
    }
    int rc = inflate(&zs, Z_NO_FLUSH);
    if (rc == Z_STREAM_END) {
      state_->member_done = true;
      continue;
    }
    if (rc == Z_BUF_ERROR && zs.avail_in == 0 && state_->input_done) {
      throw SourceError("truncated gzip data");
    }
    if (rc != Z_OK && rc != Z_BUF_ERROR) {
      throw SourceError(std::string("corrupt gzip data (") + (zs.msg ? zs.msg : "zlib error") + ")");
    }
  }
  return dst.size() - zs.avail_out;
}

namespace {

// Puts already-read bytes back in front of a source (used to sniff the gzip magic).
class PrefixedSource final : public ByteSource {
 public:
  PrefixedSource(std::vector<uint8_t> prefix, std::unique_ptr<ByteSource> rest)
      : prefix_(std::move(prefix)), rest_(std::move(rest)) {}
  size_t read(std::span<uint8_t> dst) override {
    if (pos_ < prefix_.size()) {
      size_t n = std::min(dst.size(), prefix_.size() - pos_);
      std::memcpy(dst.data(), prefix_.data() + pos_, n);
      pos_ += n;
      return n;
    }
    return rest_->read(dst);
  }
  std::optional<uint64_t> remaining() const override {
    auto rest = rest_->remaining();
    if (!rest) return std::nullopt;
    return *rest + (prefix_.size() - pos_);
  }
  void skip(uint64_t n) override {
    const size_t from_prefix = static_cast<size_t>(std::min<uint64_t>(n, prefix_.size() - pos_));
    pos_ += from_prefix;
    rest_->skip(n - from_prefix);
  }
  // The prefix is the stream's first bytes, so the rest's offsets are the stream's.
  bool has_random_access() const override { return rest_->has_random_access(); }
  size_t read_at(uint64_t offset, std::span<uint8_t> dst) const override {
    return rest_->read_at(offset, dst);
  }
  bool lends_bytes() const override { return rest_->lends_bytes(); }
  std::span<const uint8_t> view(uint64_t offset, size_t wanted) override {
    pos_ = prefix_.size();  // the rest lends the prefix's bytes too, at the same offsets
    return rest_->view(offset, wanted);
  }
  void check_unchanged() const override { rest_->check_unchanged(); }
  std::span<const uint8_t> bytes_in_place() const override { return rest_->bytes_in_place(); }

 private:
  std::vector<uint8_t> prefix_;
  size_t pos_ = 0;
  std::unique_ptr<ByteSource> rest_;
};

}  // namespace

std::unique_ptr<ByteSource> inflate_if_gzip(std::unique_ptr<ByteSource> source) {
  std::vector<uint8_t> head(2);
  size_t have = 0;
  while (have < head.size()) {
    size_t got = source->read(std::span(head).subspan(have));
    if (got == 0) break;
    have += got;
  }
  head.resize(have);
  bool gzip = has_gzip_magic(head);
  auto prefixed = std::make_unique<PrefixedSource>(std::move(head), std::move(source));
  if (gzip) return std::make_unique<GzipSource>(std::move(prefixed));
  return prefixed;
}

std::unique_ptr<ByteSource> open_file_source(const std::string& path, ProgressFn on_progress) {
  return inflate_if_gzip(std::make_unique<FileSource>(path, std::move(on_progress)));
}

}  // namespace snapscope
