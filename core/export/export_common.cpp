// Shared export helpers (see export_common.h).
#include "core/export/export_common.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <stdexcept>

namespace snapscope {

namespace {
constexpr size_t kFlushBytes = size_t{1} << 20;
}

BufferedFile::BufferedFile(std::string path) : path_(std::move(path)) {
  file_ = std::fopen(path_.c_str(), "wb");
  if (file_ == nullptr) fail("cannot create");
  buffer_.reserve(kFlushBytes + 4096);
}

BufferedFile::~BufferedFile() {
  if (file_ != nullptr) std::fclose(file_);
}

BufferedFile& BufferedFile::operator<<(std::string_view text) {
  buffer_ += text;
  if (buffer_.size() >= kFlushBytes) flush();
  return *this;
}

BufferedFile& BufferedFile::operator<<(char c) {
  buffer_ += c;
  return *this;
}

BufferedFile& BufferedFile::operator<<(uint64_t value) {
  return *this << std::string_view(std::to_string(value));
}

BufferedFile& BufferedFile::operator<<(int64_t value) {
  return *this << std::string_view(std::to_string(value));
}

void BufferedFile::flush() {
  if (!buffer_.empty() && std::fwrite(buffer_.data(), 1, buffer_.size(), file_) != buffer_.size()) {
    fail("write failed");
  }
  buffer_.clear();
}

void BufferedFile::close() {
  flush();
  std::FILE* file = file_;
  file_ = nullptr;
  if (std::fclose(file) != 0) fail("write failed");
}

void BufferedFile::fail(const char* what) const {
  throw std::runtime_error(path_ + ": " + what + " (" + std::strerror(errno) + ")");
}

std::vector<LiveElement> allocated_in_range(const Timeline& timeline, EventRange range) {
  std::vector<LiveElement> out;
  for (uint32_t elem = 0; elem < timeline.element_count(); ++elem) {
    const ReplayElement& element = timeline.element(elem);
    if (element.origin != Origin::Traced || element.alloc_event < 0) continue;
    if (range.contains(element.alloc_event)) out.push_back({elem, element.size, allocation_stack(element)});
  }
  return out;
}

int64_t action_time(const Timeline& timeline, size_t action) {
  const std::vector<int64_t>& times = timeline.input().action_time_us;
  return action < times.size() ? times[action] : kNoTime;
}

std::string display_name(const ExportInput& input) {
  const std::filesystem::path path(input.file);
  const std::string name = path.filename().string();
  return name.empty() ? path.parent_path().filename().string() : name;
}

}  // namespace snapscope
