#include "core/store/elements_db/sqlite_record.h"

#include <cassert>

namespace snapscope::sqlite_format {
namespace {

// The serial type SQLite gives an integer (sqlite3VdbeSerialType): the smallest that holds it.
uint8_t integer_type(int64_t value, bool small_ints) {
  const uint64_t magnitude = value < 0 ? ~static_cast<uint64_t>(value) : static_cast<uint64_t>(value);
  if (magnitude <= 127) return small_ints && (value == 0 || value == 1) ? static_cast<uint8_t>(8 + value) : 1;
  if (magnitude <= 32767) return 2;
  if (magnitude <= 8388607) return 3;
  if (magnitude <= 2147483647) return 4;
  if (magnitude <= 0x7fffffffffffULL) return 5;
  return 6;
}

constexpr size_t kTypeBytes[] = {0, 1, 2, 3, 4, 6, 8, 0, 0, 0};

}  // namespace

size_t varint_length(uint64_t value) {
  if (value & (uint64_t{0xff000000} << 32)) return kMaxVarintBytes;
  size_t n = 1;
  while (value >>= 7) ++n;
  return n;
}

size_t put_varint(uint64_t value, uint8_t* out) {
  if (value <= 0x7f) {
    out[0] = static_cast<uint8_t>(value);
    return 1;
  }
  if (value & (uint64_t{0xff000000} << 32)) {  // nine bytes: the last one holds eight bits
    out[8] = static_cast<uint8_t>(value);
    value >>= 8;
    for (int i = 7; i >= 0; --i) {
      out[i] = static_cast<uint8_t>((value & 0x7f) | 0x80);
      value >>= 7;
    }
    return kMaxVarintBytes;
  }
  const size_t n = varint_length(value);
  for (size_t i = n; i-- > 0;) {
    out[i] = static_cast<uint8_t>((value & 0x7f) | (i + 1 == n ? 0 : 0x80));
    value >>= 7;
  }
  return n;
}

size_t put_record(std::span<const FeedValue> values, bool small_ints, uint8_t* out) {
  assert(values.size() + 1 < 128);  // the header's length fits one varint byte
  const size_t header = values.size() + 1;
  out[0] = static_cast<uint8_t>(header);
  uint8_t* body = out + header;
  for (size_t c = 0; c < values.size(); ++c) {
    const FeedValue& v = values[c];
    const uint8_t type = c == 0 || v.null ? 0 : integer_type(v.value, small_ints);
    out[1 + c] = type;
    const size_t bytes = kTypeBytes[type];
    auto bits = static_cast<uint64_t>(v.value);
    for (size_t i = bytes; i-- > 0;) {  // big-endian two's complement
      body[i] = static_cast<uint8_t>(bits);
      bits >>= 8;
    }
    body += bytes;
  }
  return static_cast<size_t>(body - out);
}

}  // namespace snapscope::sqlite_format
