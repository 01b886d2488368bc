// Pickle's numbers and lengths are little-endian, like every host we build for.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>

namespace snapscope::pickle {

static_assert(std::endian::native == std::endian::little);

// The unsigned value of `width` (at most 8) bytes at `p`. The fixed widths are one load each: a
// LONG_BINGET's index is read tens of millions of times.
[[gnu::always_inline]] inline uint64_t load_le(const uint8_t* p, size_t width) {
  uint64_t v = 0;
  switch (width) {
    case 2:
      std::memcpy(&v, p, 2);
      return v;
    case 4:
      std::memcpy(&v, p, 4);
      return v;
    case 8:
      std::memcpy(&v, p, 8);
      return v;
    default:
      for (size_t i = 0; i < width; ++i) v |= uint64_t{p[i]} << (8 * i);
      return v;
  }
}

}  // namespace snapscope::pickle
