// The memory_viz stacked layout, computed on demand from O(events) data.
//
// Coordinates:
//   - action index i in [0, action_count()): the i-th alloc/free of the replay.
//   - state s in [0, action_count()]: the memory state after the first s actions
//     (s = 0 is the initial stack at t = 0).
//   - timestep t in [0, timesteps()): memory_viz's x axis. Action i occupies steps
//     [step_begin(i), step_end(i)): 1 step, or 4 for a free with anything above it.
// During action i's steps memory_viz draws max(total_before(i), total_after(i)).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "core/timeline/replay_input.h"

namespace snapscope {

struct LiveAllocation {
  uint32_t elem = 0;
  uint64_t offset = 0;  // bytes below it in the stack
  uint64_t size = 0;
};

class Timeline {
 public:
  explicit Timeline(ReplayInput input);

  const ReplayInput& input() const { return input_; }
  const ReplayElement& element(uint32_t elem) const { return input_.elements[elem]; }
  size_t element_count() const { return input_.elements.size(); }
  size_t action_count() const { return input_.actions.size(); }

  // Stack order: position of an element in insertion order (initial stack first, then allocs).
  uint32_t stack_position(uint32_t elem) const { return stack_position_[elem]; }
  uint32_t element_at_stack_position(uint32_t pos) const { return stack_order_[pos]; }

  bool action_is_free(size_t action) const;
  uint64_t total_at_state(size_t state) const { return total_[state]; }  // O(1)
  uint64_t total_before(size_t action) const { return total_[action]; }
  uint64_t total_after(size_t action) const { return total_[action + 1]; }

  uint64_t timesteps() const;  // T, memory_viz's max_at_time.length
  uint64_t step_begin(size_t action) const;
  uint64_t step_end(size_t action) const;
  size_t action_at_step(uint64_t step) const;    // the action whose steps contain `step`
  uint64_t memory_at_step(uint64_t step) const;  // memory_viz's max_at_time[step]

  // memory_viz's max_size: the largest total after any action (0 when there are none).
  uint64_t max_size() const { return max_size_; }
  uint64_t peak_bytes() const { return peak_bytes_; }    // max over all steps
  size_t peak_action() const { return peak_action_; }    // first action whose steps show the peak

  // Lifetime of an element in states: live in [alloc_state, free_state).
  size_t alloc_state(uint32_t elem) const { return alloc_state_[elem]; }
  size_t free_state(uint32_t elem) const { return free_state_[elem]; }  // action_count()+1 if never freed

  // Live allocations in state s, bottom to top, with byte offsets. O(K + live) via checkpoints.
  std::vector<LiveAllocation> live_at(size_t state) const;
  // The allocation covering byte `offset` in state s, if any.
  std::optional<LiveAllocation> allocation_at(size_t state, uint64_t offset) const;
  // Offset of one element in state s (it must be live there).
  uint64_t offset_of(uint32_t elem, size_t state) const;

  // memory_viz polygon vertices (t, offset) of one element, exactly as upstream emits them.
  // O(lifetime actions); used for conformance checks and close-up drawing.
  std::vector<std::pair<uint64_t, uint64_t>> polygon(uint32_t elem) const;

  size_t memory_bytes() const;  // resident size of this index

 private:
  ReplayInput input_;
  std::vector<uint32_t> stack_order_;     // stack position -> elem
  std::vector<uint32_t> stack_position_;  // elem -> stack position
  std::vector<uint64_t> total_;           // action_count()+1 entries
  std::vector<uint64_t> step_end_;        // per action
  std::vector<uint32_t> alloc_state_, free_state_;
  uint64_t max_size_ = 0, peak_bytes_ = 0;
  size_t peak_action_ = 0;
  // Checkpoints: live stack positions (sorted) every checkpoint_interval_ states.
  size_t checkpoint_interval_ = 0;
  std::vector<std::vector<uint32_t>> checkpoints_;
};

}  // namespace snapscope
