#include "core/convert/byte_format.h"

#include <cstdio>

namespace snapscope {

std::string human_bytes(uint64_t bytes) {
  static const char* const kUnits[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
  if (bytes < 1024) return std::to_string(bytes) + " B";
  double value = static_cast<double>(bytes);
  size_t unit = 0;
  while (value >= 1024.0 && unit + 1 < std::size(kUnits)) {
    value /= 1024.0;
    ++unit;
  }
  char text[32];
  std::snprintf(text, sizeof text, value < 10 ? "%.2f %s" : (value < 100 ? "%.1f %s" : "%.0f %s"), value,
                kUnits[unit]);
  return text;
}

std::string format_duration_us(int64_t span_us) {
  char text[48];
  const double seconds = static_cast<double>(span_us) / 1e6;
  if (span_us < 1000) {
    std::snprintf(text, sizeof text, "%lld us", static_cast<long long>(span_us));
  } else if (seconds < 1) {
    std::snprintf(text, sizeof text, "%.3f ms", static_cast<double>(span_us) / 1e3);
  } else if (seconds < 120) {
    std::snprintf(text, sizeof text, "%.3f s", seconds);
  } else {
    const auto minutes = static_cast<long long>(seconds / 60);
    std::snprintf(text, sizeof text, "%lld min %.1f s", minutes, seconds - static_cast<double>(minutes) * 60);
  }
  return text;
}

}  // namespace snapscope
