// How many cores this process may run on: the CPUs its affinity mask allows (taskset, a
// container's cpuset), which can be fewer than the machine's. Never 0.
#pragma once

namespace snapscope {

unsigned usable_cores();

}  // namespace snapscope
