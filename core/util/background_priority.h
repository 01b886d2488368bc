// Background threads run at a lower CPU priority than the UI thread, so on a machine with few
// cores a frame is not stretched by them: bulk work (indexing a whole trace for a panel) takes
// what the UI, the chart worker and the software rasteriser leave; the chart worker sits between.
#pragma once

namespace snapscope {

inline constexpr int kBulkWorkNice = 10;    // whole-trace indexing for panels (and SCHED_IDLE)
inline constexpr int kChartWorkerNice = 5;  // chart frames: wanted soon, but never before the UI

// The calling thread only (a nice value); a no-op where unsupported.
void lower_thread_priority(int nice = kBulkWorkNice);

}  // namespace snapscope
