#include "core/util/buffered_file.h"

#include <cerrno>
#include <charconv>
#include <cstring>
#include <stdexcept>

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
  file_ = std::fopen(path_.c_str(), mode == Create::Exclusive ? "wbx" : "wb");
  if (file_ == nullptr) fail("cannot create");
}

BufferedFile::~BufferedFile() {
  if (file_ != nullptr) std::fclose(file_);
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
  if (!bytes.empty() && std::fwrite(bytes.data(), 1, bytes.size(), file_) != bytes.size())
    fail("write failed");
}

void BufferedFile::close() {
  flush(true);
  std::FILE* file = file_;
  file_ = nullptr;
  if (std::fclose(file) != 0) fail("write failed");
}

void BufferedFile::fail(const char* what) const {
  throw std::runtime_error(path_ + ": " + what + ": " + std::strerror(errno));
}

}  // namespace snapscope
