// A whole file mapped read-only: reading a large file this way costs no copy. Throws InputError
// ("<path>: <reason>") when the file cannot be opened or is not a regular file.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace snapscope {

class MappedFile {
 public:
  explicit MappedFile(const std::string& path);
  ~MappedFile();
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;

  std::string_view text() const { return {static_cast<const char*>(data_), size_}; }

 private:
  void* data_ = nullptr;
  size_t size_ = 0;
};

}  // namespace snapscope
