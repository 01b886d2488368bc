#include "core/store/allocations_json/json_text_writer.h"

#include <cerrno>
#include <charconv>
#include <cstring>
#include <stdexcept>

namespace snapscope {
namespace {
constexpr size_t kFlushThreshold = size_t{1} << 20;
}

JsonTextWriter::JsonTextWriter(const std::string& path) : path_(path) {
  file_ = std::fopen(path.c_str(), "wbx");  // x: never overwrite an existing file
  if (!file_) fail("cannot create");
  buffer_.reserve(kFlushThreshold + 4096);
}

JsonTextWriter::~JsonTextWriter() {
  if (file_) std::fclose(file_);
}

void JsonTextWriter::fail(const char* what) const {
  throw std::runtime_error(path_ + ": " + what + ": " + std::strerror(errno));
}

void JsonTextWriter::raw(std::string_view text) {
  buffer_.append(text);
  flush_if_full();
}

void JsonTextWriter::integer(int64_t value) {
  char digits[24];
  const auto result = std::to_chars(digits, digits + sizeof digits, value);
  buffer_.append(digits, result.ptr);
  flush_if_full();
}

void JsonTextWriter::unsigned_integer(uint64_t value) {
  char digits[24];
  const auto result = std::to_chars(digits, digits + sizeof digits, value);
  buffer_.append(digits, result.ptr);
  flush_if_full();
}

void JsonTextWriter::string(std::string_view text) {
  buffer_.push_back('"');
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      buffer_.push_back('\\');
      buffer_.push_back(c);
    } else if (byte < 0x20) {
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\u%04x", byte);
      buffer_.append(escaped);
    } else {
      buffer_.push_back(c);  // UTF-8 passes through unchanged
    }
  }
  buffer_.push_back('"');
  flush_if_full();
}

void JsonTextWriter::key(std::string_view name) {
  string(name);
  buffer_.push_back(':');
}

void JsonTextWriter::flush_if_full() {
  if (buffer_.size() >= kFlushThreshold) flush();
}

void JsonTextWriter::flush() {
  if (buffer_.empty()) return;
  if (std::fwrite(buffer_.data(), 1, buffer_.size(), file_) != buffer_.size()) fail("write failed");
  buffer_.clear();
}

void JsonTextWriter::close() {
  flush();
  std::FILE* file = file_;
  file_ = nullptr;
  if (std::fclose(file) != 0) fail("write failed");
}

}  // namespace snapscope
