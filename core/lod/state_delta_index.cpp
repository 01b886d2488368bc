#include "core/lod/state_delta_index.h"

#include <algorithm>
#include <limits>

namespace snapscope {
namespace {
constexpr uint32_t kNotAFree = std::numeric_limits<uint32_t>::max();
}

StateDeltaIndex::StateDeltaIndex(const Timeline& timeline) : timeline_(timeline) {
  size_t positions = timeline.element_count();
  max_free_state_.assign((positions + kBlock - 1) / kBlock, 0);
  for (size_t p = 0; p < positions; ++p) {
    uint32_t elem = timeline.element_at_stack_position(static_cast<uint32_t>(p));
    auto free_state = static_cast<uint32_t>(timeline.free_state(elem));
    max_free_state_[p / kBlock] = std::max(max_free_state_[p / kBlock], free_state);
  }
  size_t actions = timeline.action_count();
  min_freed_position_.assign((actions + kBlock - 1) / kBlock, kNotAFree);
  for (size_t a = 0; a < actions; ++a) {
    if (!timeline.action_is_free(a)) continue;
    const uint32_t position = timeline.action_stack_position(a);
    min_freed_position_[a / kBlock] = std::min(min_freed_position_[a / kBlock], position);
  }
}

void StateDeltaIndex::for_each_surviving(uint32_t first, uint32_t last, size_t state,
                                         const std::function<void(uint32_t)>& visit) const {
  for (uint32_t p = first; p < last;) {
    size_t block = p / kBlock;
    auto block_end = static_cast<uint32_t>(std::min<size_t>((block + 1) * kBlock, last));
    if (max_free_state_[block] > state) {
      for (; p < block_end; ++p) {
        if (timeline_.free_state(timeline_.element_at_stack_position(p)) > state) visit(p);
      }
    }
    p = block_end;
  }
}

void StateDeltaIndex::for_each_old_free(size_t first, size_t last,
                                        const std::function<void(uint32_t)>& visit) const {
  // Alloc states grow with stack position: live at `first` means a position below this.
  const uint32_t allocated = timeline_.positions_allocated_by(first);
  for (size_t a = first; a < last;) {
    size_t block = a / kBlock;
    size_t block_end = std::min((block + 1) * kBlock, last);
    if (min_freed_position_[block] < allocated) {
      for (; a < block_end; ++a) {
        if (!timeline_.action_is_free(a)) continue;
        const uint32_t position = timeline_.action_stack_position(a);
        if (position < allocated) visit(position);
      }
    }
    a = block_end;
  }
}

void StateDeltaIndex::for_each_change(size_t from, size_t to,
                                      const std::function<void(uint32_t, bool)>& on_change) const {
  if (from == to) return;
  size_t early = std::min(from, to), late = std::max(from, to);
  bool forward = to > from;
  // Allocated in (early, late] and still live at `late`: live only in the later state.
  for_each_surviving(timeline_.positions_allocated_by(early), timeline_.positions_allocated_by(late), late,
                     [&](uint32_t p) { on_change(p, forward); });
  // Live at `early` and freed by `late`: live only in the earlier state.
  for_each_old_free(early, late, [&](uint32_t p) { on_change(p, !forward); });
}

void StateDeltaIndex::for_each_live(size_t state, const std::function<void(uint32_t)>& visit) const {
  for_each_surviving(0, timeline_.positions_allocated_by(state), state, visit);
}

size_t StateDeltaIndex::memory_bytes() const {
  return (max_free_state_.size() + min_freed_position_.size()) * sizeof(uint32_t);
}

}  // namespace snapscope
