// The strict JSON integer rule shared by allocations.json's two fast paths (the tokenizer and
// the column parser), so both accept exactly the same text.
#pragma once

#include <cstdint>
#include <limits>
#include <optional>

namespace snapscope {

// Reads an integer at `at` (advancing it past the digits): an optional '-', no leading zeros,
// no fraction or exponent, within int64 (negative) or uint64 (positive). Unsigned values above
// INT64_MAX keep their bit pattern in the int64_t. Empty on anything else.
struct JsonInteger {
  int64_t value = 0;
  bool is_unsigned = false;  // written without '-': the SAX handler's number_unsigned
};

inline std::optional<JsonInteger> scan_json_integer(const char*& at, const char* end) {
  const auto is_digit = [](char c) { return c >= '0' && c <= '9'; };
  const bool negative = *at == '-';
  if (negative) ++at;
  if (at == end || !is_digit(*at)) return std::nullopt;
  if (*at == '0' && at + 1 != end && is_digit(at[1])) return std::nullopt;  // no leading zeros
  // Up to 19 digits cannot overflow 64 bits, so the loop needs no check per digit (a division
  // per digit made this the slowest part of loading a large file); a 20th digit is checked.
  const char* const first = at;
  const char* const unchecked_end = end - first > 19 ? first + 19 : end;
  uint64_t magnitude = 0;
  while (at != unchecked_end && is_digit(*at))
    magnitude = magnitude * 10 + static_cast<uint64_t>(*at++ - '0');
  if (at != end && is_digit(*at)) {
    constexpr uint64_t kMax = std::numeric_limits<uint64_t>::max();
    const auto digit = static_cast<uint64_t>(*at - '0');
    if (magnitude > (kMax - digit) / 10) return std::nullopt;
    magnitude = magnitude * 10 + digit;
    ++at;
    if (at != end && is_digit(*at)) return std::nullopt;  // 21 digits
  }
  if (at != end && (*at == '.' || *at == 'e' || *at == 'E')) return std::nullopt;
  if (!negative) return JsonInteger{static_cast<int64_t>(magnitude), true};
  constexpr auto kLowest = static_cast<uint64_t>(std::numeric_limits<int64_t>::max()) + 1;
  if (magnitude > kLowest) return std::nullopt;
  return JsonInteger{static_cast<int64_t>(0 - magnitude), false};  // wraps to INT64_MIN for kLowest
}

}  // namespace snapscope
