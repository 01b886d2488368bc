#include "core/analysis/live_elements.h"

namespace snapscope {

StackId allocation_stack(const ReplayElement& element) {
  return element.origin == Origin::FreeWithoutAlloc ? 0 : element.stack;
}

std::vector<LiveElement> live_elements(const Timeline& timeline, size_t state) {
  const std::vector<LiveAllocation> live = timeline.live_at(state);
  std::vector<LiveElement> result;
  result.reserve(live.size());
  for (const LiveAllocation& allocation : live) {
    result.push_back({allocation.elem, allocation.size, allocation_stack(timeline.element(allocation.elem))});
  }
  return result;
}

}  // namespace snapscope
