#include "core/util/format.h"

#include <array>
#include <cmath>
#include <cstdio>
#include <utility>

namespace snapscope {
namespace {

// printf with %.*f, then trailing zeros (and a trailing point) removed.
std::string trimmed_fixed(double value, int decimals) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.*f", decimals, value);
  std::string text = buffer;
  if (text.find('.') != std::string::npos) {
    while (text.back() == '0') text.pop_back();
    if (text.back() == '.') text.pop_back();
  }
  return text;
}

std::string with_sign(bool negative, std::string text) {
  if (negative) text.insert(text.begin(), '-');
  return text;
}

}  // namespace

std::string format_bytes(double bytes, int decimals) {
  static constexpr std::array<const char*, 7> kUnits = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  const bool negative = bytes < 0;
  double magnitude = std::fabs(bytes);
  size_t unit = 0;
  // Four digits before the point read as the next unit: "0.99 GiB", not "1015.54 MiB" (bytes
  // stay bytes up to 1023).
  const auto next_unit_at = [&unit] { return unit == 0 ? 1024.0 : 1000.0; };
  while (magnitude >= next_unit_at() && unit + 1 < kUnits.size()) {
    magnitude /= 1024.0;
    ++unit;
  }
  // Rounding can carry into the next unit ("1000 KiB"); move up instead.
  if (unit + 1 < kUnits.size() && std::stod(trimmed_fixed(magnitude, decimals)) >= next_unit_at()) {
    magnitude /= 1024.0;
    ++unit;
  }
  std::string text = trimmed_fixed(magnitude, unit == 0 ? 0 : decimals);
  text += ' ';
  text += kUnits[unit];
  return with_sign(negative, std::move(text));
}

std::string format_grouped(uint64_t value) {
  const std::string digits = std::to_string(value);
  std::string grouped;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) grouped += ',';
    grouped += digits[i];
  }
  return grouped;
}

std::string format_bytes_exact(uint64_t bytes) { return format_grouped(bytes) + " B"; }

std::string format_count(uint64_t count, std::string_view singular, std::string_view plural) {
  std::string text = format_grouped(count) + " ";
  if (count == 1) return text + std::string(singular);
  return text + (plural.empty() ? std::string(singular) + "s" : std::string(plural));
}

std::string format_signed_bytes(int64_t delta) {
  // Negated as unsigned: INT64_MIN has no positive int64_t.
  const uint64_t magnitude = delta < 0 ? 0 - static_cast<uint64_t>(delta) : static_cast<uint64_t>(delta);
  return (delta < 0 ? "-" : delta > 0 ? "+" : "") + format_bytes(static_cast<double>(magnitude));
}

std::string format_address(uint64_t address) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "0x%llx", static_cast<unsigned long long>(address));
  return buffer;
}

std::string format_duration_us(double microseconds) {
  const bool negative = microseconds < 0;
  const double us = std::fabs(microseconds);
  std::string text;
  if (us < 1000.0) {
    text = trimmed_fixed(us, 1) + " us";
  } else if (us < 1e6) {
    text = trimmed_fixed(us / 1e3, 2) + " ms";
  } else if (us < 60e6) {
    text = trimmed_fixed(us / 1e6, 2) + " s";
  } else {
    const auto total_seconds = static_cast<uint64_t>(us / 1e6);
    text = std::to_string(total_seconds / 60) + " min " + std::to_string(total_seconds % 60) + " s";
  }
  return with_sign(negative, std::move(text));
}

}  // namespace snapscope
