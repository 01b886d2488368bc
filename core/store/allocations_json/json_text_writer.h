// Streams JSON text to a file through a large buffer. Used for allocations.json, where
// building a nlohmann::json document of millions of numbers would cost GBs and seconds.
// The caller is responsible for well-formedness (commas, brackets); this only encodes.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

namespace snapscope {

class JsonTextWriter {
 public:
  explicit JsonTextWriter(const std::string& path);  // throws std::runtime_error("<path>: ...")
  ~JsonTextWriter();
  JsonTextWriter(const JsonTextWriter&) = delete;
  JsonTextWriter& operator=(const JsonTextWriter&) = delete;

  void raw(std::string_view text);  // punctuation and pre-encoded text
  void integer(int64_t value);
  void unsigned_integer(uint64_t value);
  void string(std::string_view text);  // quoted and escaped
  void key(std::string_view name);     // "name":
  void close();                        // flushes; throws on any write error

 private:
  void flush_if_full();
  void flush();
  [[noreturn]] void fail(const char* what) const;

  std::string path_;
  std::FILE* file_ = nullptr;
  std::string buffer_;
};

}  // namespace snapscope
