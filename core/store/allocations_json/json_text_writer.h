// Streams JSON text to a file through a large buffer. Used for allocations.json, where
// building a nlohmann::json document of millions of numbers would cost GBs and seconds.
// The caller is responsible for well-formedness (commas, brackets); this only encodes.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "core/util/buffered_file.h"

namespace snapscope {

class JsonTextWriter {
 public:
  // By default never overwrites an existing file (a staging directory's own files); exports
  // pass Create::Replace. Throws std::runtime_error("<path>: ...").
  explicit JsonTextWriter(const std::string& path,
                          BufferedFile::Encoding encoding = BufferedFile::Encoding::Plain,
                          BufferedFile::Create mode = BufferedFile::Create::Exclusive)
      : out_(path, mode, encoding) {}

  void raw(std::string_view text) { out_.append(text); }  // punctuation and pre-encoded text
  void integer(int64_t value) { out_ << value; }
  void unsigned_integer(uint64_t value) { out_ << value; }
  void string(std::string_view text);  // quoted and escaped
  void key(std::string_view name);     // "name":
  void close() { out_.close(); }       // flushes; throws on any write error

 private:
  BufferedFile out_;
};

}  // namespace snapscope
