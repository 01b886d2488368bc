// Tick positions for the timeline axes: "nice" decimal steps for event indices and times,
// power-of-two steps for bytes so that labels read as round KiB / MiB / GiB.
#pragma once

#include <string>
#include <vector>

namespace snapscope {

struct Tick {
  double value = 0;
  std::string label;
};

// Step from {1, 2, 5} x 10^k, at least (hi - lo) / max_ticks.
double nice_decimal_step(double lo, double hi, int max_ticks);
// Step 2^k bytes (k >= 0), at least (hi - lo) / max_ticks.
double binary_step(double lo, double hi, int max_ticks);

// Multiples of the step inside [lo, hi].
std::vector<double> tick_values(double lo, double hi, double step);

std::vector<Tick> index_ticks(double lo, double hi, int max_ticks);  // integers: "12,000"
std::vector<Tick> byte_ticks(double lo, double hi, int max_ticks);   // "1.5 GiB"

}  // namespace snapscope
