#include "core/util/buffered_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstring>
#include <stdexcept>

#include "core/util/output_file.h"
#include "core/util/zstd_codec.h"

namespace snapscope {
namespace {

template <typename Integer>
std::string_view decimal(Integer value, char (&digits)[24]) {
  const auto result = std::to_chars(digits, digits + sizeof digits, value);
  return {digits, static_cast<size_t>(result.ptr - digits)};
}

}  // namespace

BufferedFile::BufferedFile(std::string path, Create mode, Encoding encoding) : path_(std::move(path)) {
  if (encoding == Encoding::Zstd) {
    zstd_ = std::make_unique<ZstdEncoder>();  // before the file: it can throw
    flush_bytes_ = kZstdFrameBytes;
  }
  buffer_.reserve(flush_bytes_ + 4096);
  if (mode == Create::Replace) {
    output_ = std::make_unique<OutputFile>(path_);
    return;
  }
  fd_ = ::open(path_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
  if (fd_ < 0) throw std::runtime_error(path_ + ": cannot create: " + std::strerror(errno));
}

BufferedFile::~BufferedFile() {
  if (fd_ >= 0) ::close(fd_);
}

BufferedFile& BufferedFile::operator<<(uint64_t value) {
  char digits[24];
  append(decimal(value, digits));
  return *this;
}

BufferedFile& BufferedFile::operator<<(int64_t value) {
  char digits[24];
  append(decimal(value, digits));
  return *this;
}

void BufferedFile::flush(bool last) {
  if (!zstd_) {
    write(buffer_);
  } else if (!buffer_.empty() || (last && !wrote_frame_)) {  // an empty text is one empty frame
    compressed_.clear();
    try {
      zstd_->compress_frame(buffer_, compressed_);
    } catch (const std::runtime_error& error) {
      throw std::runtime_error(path_ + ": " + error.what());
    }
    write(compressed_);
    wrote_frame_ = true;
  }
  buffer_.clear();
}

void BufferedFile::write(std::string_view bytes) {
  if (output_) {
    output_->write(bytes);
  } else {
    write_all(fd_, bytes, path_);
  }
}

void BufferedFile::close() {
  flush(true);
  if (output_) return output_->commit();
  const int fd = fd_;
  fd_ = -1;
  if (::close(fd) != 0) throw std::runtime_error(path_ + ": write failed: " + std::strerror(errno));
}

}  // namespace snapscope
