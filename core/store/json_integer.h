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
  uint64_t magnitude = 0;
  constexpr uint64_t kMax = std::numeric_limits<uint64_t>::max();
  while (at != end && is_digit(*at)) {
    const auto digit = static_cast<uint64_t>(*at - '0');
    if (magnitude > (kMax - digit) / 10) return std::nullopt;
    magnitude = magnitude * 10 + digit;
    ++at;
  }
  if (at != end && (*at == '.' || *at == 'e' || *at == 'E')) return std::nullopt;
  if (!negative) return JsonInteger{static_cast<int64_t>(magnitude), true};
  constexpr auto kLowest = static_cast<uint64_t>(std::numeric_limits<int64_t>::max()) + 1;
  if (magnitude > kLowest) return std::nullopt;
  return JsonInteger{static_cast<int64_t>(0 - magnitude), false};  // wraps to INT64_MIN for kLowest
}

}  // namespace snapscope
