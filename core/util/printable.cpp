#include "core/util/printable.h"

#include <cstdint>

namespace snapscope {
namespace {

constexpr char kHex[] = "0123456789abcdef";

bool is_control(unsigned char c) { return c < 0x20 || c == 0x7f; }

void append_escape(std::string& out, unsigned char c) {
  switch (c) {
    case '\0':
      out += "\\0";
      return;
    case '\n':
      out += "\\n";
      return;
    case '\r':
      out += "\\r";
      return;
    case '\t':
      out += "\\t";
      return;
    case 0x1b:
      out += "\\e";
      return;
    default:
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 15];
  }
}

// A C1 control encoded in UTF-8 is 0xc2 followed by 0x80..0x9f.
bool is_c1_at(std::string_view text, size_t i) {
  return static_cast<unsigned char>(text[i]) == 0xc2 && i + 1 < text.size() &&
         static_cast<unsigned char>(text[i + 1]) >= 0x80 && static_cast<unsigned char>(text[i + 1]) <= 0x9f;
}

bool needs_escape(std::string_view text, bool keep_newlines) {
  for (size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if ((is_control(c) && !(keep_newlines && c == '\n')) || is_c1_at(text, i)) return true;
  }
  return false;
}

std::string escaped(std::string_view text, bool keep_newlines) {
  if (!needs_escape(text, keep_newlines)) return std::string(text);
  std::string out;
  out.reserve(text.size() + 16);
  for (size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (is_c1_at(text, i)) {
      const auto code = static_cast<unsigned char>(text[++i]);
      out += "\\u00";
      out += kHex[code >> 4];
      out += kHex[code & 15];
    } else if (is_control(c) && !(keep_newlines && c == '\n')) {
      append_escape(out, c);
    } else {
      out += static_cast<char>(c);
    }
  }
  return out;
}

}  // namespace

std::string printable(std::string_view text) { return escaped(text, false); }

std::string printable_lines(std::string_view text) { return escaped(text, true); }

}  // namespace snapscope
