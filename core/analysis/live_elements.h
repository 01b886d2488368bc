// The live allocations of one Timeline state, each with the stack that explains it. Every
// analysis view (moment table, call trees) groups this one list, so their totals agree.
#pragma once

#include <cstdint>
#include <vector>

#include "core/timeline/timeline.h"

namespace snapscope {

struct LiveElement {
  uint32_t elem = 0;
  uint64_t size = 0;
  StackId stack = 0;  // where it was allocated; 0 when unknown (untraced or pre-existing)
};

// The stack of an element's allocation. A free without a recorded alloc only carries the stack
// of its free, which says nothing about who allocated it, so it counts as unknown.
StackId allocation_stack(const ReplayElement& element);

// Bottom to top, as Timeline::live_at; sizes sum to Timeline::total_at_state(state).
std::vector<LiveElement> live_elements(const Timeline& timeline, size_t state);

}  // namespace snapscope
