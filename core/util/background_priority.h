// Background threads run at a lower CPU priority than the UI thread, so on a machine with few
// cores a frame is not stretched by them: bulk work (indexing a whole trace for a panel) takes
// what the UI, the chart worker and the software rasteriser leave; the chart worker sits between.
#pragma once

#include <future>
#include <utility>

namespace snapscope {

inline constexpr int kBulkWorkNice = 10;    // whole-trace indexing for panels (and SCHED_IDLE)
inline constexpr int kChartWorkerNice = 5;  // chart frames: wanted soon, but never before the UI
// A viewer's conversion past its timelines (the database, allocations.json): after the chart,
// but not idle-class, so that a busy window cannot starve it.
inline constexpr int kBehindWindowNice = 7;

// The calling thread only (a nice value); a no-op where unsupported. Bulk work (a nice value of
// kBulkWorkNice or more) also goes idle-class, unless other processes fill every core
// (machine_busy_lately() in machine_load.h).
void lower_thread_priority(int nice = kBulkWorkNice);

// The same with the choice made: `idle_class` also moves the thread to SCHED_IDLE. A thread
// cannot leave that class again without privilege.
void set_thread_priority(int nice, bool idle_class);

// std::async on a new thread that runs `work` as bulk work (lower_thread_priority()).
template <class Work>
auto start_bulk_work(Work work) {
  return std::async(std::launch::async, [work = std::move(work)]() mutable {
    lower_thread_priority();
    return work();
  });
}

}  // namespace snapscope
