#include "core/store/allocations_json/json_text_writer.h"

#include <cstdio>

namespace snapscope {

void JsonTextWriter::string(std::string_view text) {
  out_.append_char('"');
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out_.append_char('\\');
      out_.append_char(c);
    } else if (byte < 0x20) {
      char escaped[8];
      const int length = std::snprintf(escaped, sizeof escaped, "\\u%04x", byte);
      out_.append(std::string_view(escaped, static_cast<size_t>(length)));
    } else {
      out_.append_char(c);  // UTF-8 passes through unchanged
    }
  }
  out_.append_char('"');
  out_.flush_if_full();
}

void JsonTextWriter::key(std::string_view name) {
  string(name);
  out_.append_char(':');
}

}  // namespace snapscope
