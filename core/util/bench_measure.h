// Measures the viewer's and the terminal's --bench share: the process's age ("process start to
// first screen") and percentiles of timings; CPU clocks for the converter's --timings and the
// parallel reader's stats.
#pragma once

#include <vector>

namespace snapscope {

// Milliseconds since the kernel started this process (exec and dynamic loading included), from
// /proc: clock-tick resolution (10 ms), plenty for seconds-long opens.
double process_age_ms();

// CPU seconds used so far, not wall time: by the whole process, or by the calling thread.
double process_cpu_seconds();
double thread_cpu_seconds();

// The value at `fraction` (0.5: the median, 1: the largest) of `values`, nearest rank; 0 when empty.
double percentile(std::vector<double> values, double fraction);

}  // namespace snapscope
