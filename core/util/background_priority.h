// Background threads run at a lower CPU priority than the UI thread, so on a machine with few
// cores a frame is not stretched by them: bulk work (indexing a whole trace for a panel) takes
// what the UI, the chart worker and the software rasteriser leave; the chart worker sits between.
#pragma once

#include <cstdint>
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
// (machine_busy_at()).
void lower_thread_priority(int nice = kBulkWorkNice);

// The same with the choice made: `idle_class` also moves the thread to SCHED_IDLE. A thread
// cannot leave that class again without privilege.
void set_thread_priority(int nice, bool idle_class);

// Whether an idle-class thread would still get a core: false when other processes' runnable
// threads (`others`) fill every core. Then an idle-class thread only runs in their gaps: a
// panel took 214 s instead of 4 s beside two busy loops started from the same shell (the
// kernel's autogroups shield a process only from other sessions). A count that could not be
// read (negative) counts as a quiet machine.
bool idle_class_may_run(long others, unsigned cores);

// Threads runnable right now on the whole machine (/proc/loadavg), this process's share of them,
// and the other processes' (the difference); -1 where the system does not say.
long runnable_threads();
long own_runnable_threads();
long other_runnable_threads();
// Whether other processes fill every core, by most of a few looks at other_runnable_threads()
// (about 5 ms). machine_busy_at() keeps that answer for a second of steady-clock time (`now_ms`)
// for lower_thread_priority(); machine_looks_taken() counts its fresh looks.
bool machine_busy();
bool machine_busy_at(int64_t now_ms);
uint64_t machine_looks_taken();

// std::async on a new thread that runs `work` as bulk work (lower_thread_priority()).
template <class Work>
auto start_bulk_work(Work work) {
  return std::async(std::launch::async, [work = std::move(work)]() mutable {
    lower_thread_priority();
    return work();
  });
}

}  // namespace snapscope
