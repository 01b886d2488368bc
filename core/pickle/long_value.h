// LONG1 / LONG4's little-endian two's complement as a value: shared by the unpickler and its
// batch reader, which must read a number exactly alike.
#pragma once

#include <cstdint>

#include "core/pickle/little_endian.h"
#include "core/pickle/value.h"

namespace snapscope::pickle {

// `n` bytes at `le`: an Int, a UInt for [2^63, 2^64) (CUDA addresses written with 9 bytes), or
// a BigInt's approximation beyond.
inline Value long_value(const uint8_t* le, uint64_t n) {
  if (n == 0) return Value::integer(0);
  const bool negative = (le[n - 1] & 0x80) != 0;
  uint64_t significant = n;  // drop redundant sign-extension bytes
  while (significant > 1 && le[significant - 1] == (negative ? 0xFF : 0x00) &&
         ((le[significant - 2] & 0x80) != 0) == negative) {
    --significant;
  }
  if (significant <= 8) {
    uint64_t raw = load_le(le, static_cast<size_t>(significant));
    if (negative && significant < 8) raw |= ~uint64_t{0} << (8 * significant);
    return Value::integer(static_cast<int64_t>(raw));
  }
  if (!negative && significant == 9 && le[8] == 0) return Value::uinteger(load_le(le, 8));
  double approx = 0;
  for (uint64_t i = significant; i-- > 0;) {
    approx = approx * 256 + (negative ? static_cast<uint8_t>(~le[i]) : le[i]);
  }
  return Value::floating(Kind::BigInt, negative ? -(approx + 1) : approx);
}

}  // namespace snapscope::pickle
