// How busy the machine is with other processes' work, for choosing a background thread's
// scheduling class (background_priority): runnable threads now, this process's and the others'.
#pragma once

#include <cstdint>

namespace snapscope {

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
// (about 5 ms). machine_busy_at() keeps that answer for a second of steady-clock time (`now_ms`);
// machine_busy_lately() asks it with the steady clock's time. machine_looks_taken() counts its
// fresh looks.
bool machine_busy();
bool machine_busy_at(int64_t now_ms);
bool machine_busy_lately();
uint64_t machine_looks_taken();

}  // namespace snapscope
