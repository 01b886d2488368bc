#include "core/view/axis_ticks.h"

#include <algorithm>
#include <cmath>

#include "core/util/format.h"

namespace snapscope {
namespace {

double min_step(double lo, double hi, int max_ticks) {
  return std::max((hi - lo) / std::max(1, max_ticks), 1e-12);
}

}  // namespace

double nice_decimal_step(double lo, double hi, int max_ticks) {
  const double raw = min_step(lo, hi, max_ticks);
  const double power = std::pow(10.0, std::floor(std::log10(raw)));
  for (double mantissa : {1.0, 2.0, 5.0, 10.0}) {
    if (mantissa * power >= raw * (1 - 1e-9)) return mantissa * power;
  }
  return 10 * power;
}

double binary_step(double lo, double hi, int max_ticks) {
  const double raw = min_step(lo, hi, max_ticks);
  return std::max(1.0, std::exp2(std::ceil(std::log2(raw))));
}

std::vector<double> tick_values(double lo, double hi, double step) {
  std::vector<double> values;
  if (!(step > 0) || hi < lo) return values;
  for (double k = std::ceil(lo / step); k * step <= hi; k += 1) values.push_back(k * step);
  return values;
}

std::vector<Tick> index_ticks(double lo, double hi, int max_ticks) {
  // Event indices are integers: never subdivide below one.
  const double step = std::max(1.0, nice_decimal_step(lo, hi, max_ticks));
  std::vector<Tick> ticks;
  for (double value : tick_values(lo, hi, step))
    ticks.push_back({value, format_grouped(static_cast<uint64_t>(std::llround(std::max(0.0, value))))});
  return ticks;
}

std::vector<Tick> byte_ticks(double lo, double hi, int max_ticks) {
  std::vector<Tick> ticks;
  for (double value : tick_values(lo, hi, binary_step(lo, hi, max_ticks))) {
    ticks.push_back({value, format_bytes(value)});
  }
  return ticks;
}

}  // namespace snapscope
