// The memory_viz stacked layout, computed on demand from O(events) data.
//
// Coordinates:
//   - action index i in [0, action_count()): the i-th alloc/free of the replay.
//   - state s in [0, action_count()]: the memory state after the first s actions
//     (s = 0 is the initial stack at t = 0).
//   - timestep t in [0, timesteps()): memory_viz's x axis. Action i occupies steps
//     [step_begin(i), step_end(i)): 1 step, or 4 for a free with anything above it.
// During action i's steps memory_viz draws max(total_before(i), total_after(i)).
//
// Stack model: every element is pushed exactly once (initial stack first, then each alloc in
// action order), so its stack position never changes and the live stack at any state is the
// live elements sorted by stack position. A sweep (e.g. a level-of-detail builder) can walk
// actions i in [a, b) with action_elem(i) / action_is_free(i) and place elements by
// stack_position(); live_at() gives the starting state of such a sweep.
//
// Construction throws std::invalid_argument for an inconsistent ReplayInput (element index out
// of range, an element allocated twice or freed while not live); callers add the file name.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "core/timeline/action_steps.h"
#include "core/timeline/replay_input.h"
#include "core/util/column.h"
#include "core/util/compact_sizes.h"
#include "core/util/packed_int64s.h"

namespace snapscope {

struct LiveAllocation {
  uint32_t elem = 0;
  uint64_t offset = 0;  // bytes below it in the stack
  uint64_t size = 0;
};

class Timeline {
 public:
  // Upper bound for live-set checkpoint memory; the interval adapts to stay within it.
  static constexpr size_t kDefaultCheckpointBudget = size_t{64} << 20;

  explicit Timeline(ReplayInput input, size_t checkpoint_budget_bytes = kDefaultCheckpointBudget);

  // A timeline image (core/store/timeline_image) stores what the replay made, and reads it
  // back without replaying: parts_of names every array and figure in one order for both ways.
  template <typename Self, typename Parts>
  static void parts_of(Self& self, Parts& parts) {
    ReplayInput::parts_of(self.input_, parts);
    parts.column(self.stack_order_);
    parts.column(self.stack_position_);
    CompactSizes::parts_of(self.position_size_, parts);
    parts.column(self.position_free_state_);
    parts.value(self.initial_positions_);
    PackedInt64s::parts_of(self.total_, parts);
    ActionSteps::parts_of(self.steps_, parts);
    parts.value(self.max_size_);
    parts.value(self.peak_bytes_);
    parts.value(self.peak_action_);
    parts.value(self.checkpoint_interval_);
    parts.column(self.checkpoint_positions_);
    parts.column(self.checkpoint_begin_);
  }
  struct FromParts {};
  // The timeline that `read` holds, checked so that no query reads outside its arrays
  // (std::invalid_argument otherwise). The figures are trusted as stored, not recomputed.
  template <typename Parts>
  Timeline(FromParts, Parts& read) {
    parts_of(*this, read);
    check_parts();
  }

  const ReplayInput& input() const { return input_; }
  const ReplayElement& element(uint32_t elem) const { return input_.elements[elem]; }
  size_t element_count() const { return input_.elements.size(); }
  size_t action_count() const { return input_.actions.size(); }

  // Stack order: position of an element in insertion order (initial stack first, then allocs);
  // kNoIndex for an element that is never live.
  uint32_t stack_position(uint32_t elem) const { return stack_position_[elem]; }
  uint32_t element_at_stack_position(uint32_t pos) const { return stack_order_[pos]; }
  uint64_t size_at_stack_position(uint32_t pos) const { return position_size_[pos]; }

  uint32_t action_elem(size_t action) const { return input_.actions[action].elem; }
  uint32_t action_stack_position(size_t action) const { return stack_position_[action_elem(action)]; }
  // The action's raw trace event (-1 for the synthetic action): see ActionEventWalk.
  int64_t action_event(size_t action) const {
    const ReplayElement& element = input_.elements[action_elem(action)];
    return action_is_free(action) ? element.free_event : element.alloc_event;
  }
  // How many actions have an event index <= `event` (they are in trace order): O(log actions).
  size_t actions_through_event(int64_t event) const;
  // An action frees its element iff the element was live before it (memory_viz's rule).
  bool action_is_free(size_t action) const { return steps_.frees(action); }
  // A free with live elements above it takes 4 steps (it slides them down), else 1 step.
  bool action_shifts(size_t action) const { return steps_.shifts(action); }
  uint64_t total_at_state(size_t state) const { return static_cast<uint64_t>(total_[state]); }  // O(1)
  uint64_t total_before(size_t action) const { return total_at_state(action); }
  uint64_t total_after(size_t action) const { return total_at_state(action + 1); }

  uint64_t timesteps() const { return steps_.timesteps(); }  // max_at_time.length
  uint64_t step_begin(size_t action) const { return steps_.step_begin(action); }
  uint64_t step_end(size_t action) const { return steps_.step_end(action); }
  // Both require step < timesteps().
  size_t action_at_step(uint64_t step) const;    // the action whose steps contain `step`
  uint64_t memory_at_step(uint64_t step) const;  // memory_viz's max_at_time[step]

  // memory_viz's max_size: the largest total after any action (0 when there are none).
  uint64_t max_size() const { return max_size_; }
  uint64_t peak_bytes() const { return peak_bytes_; }  // max over all steps
  size_t peak_action() const { return peak_action_; }  // first action whose steps show the peak

  // Lifetime of an element in states: live in [alloc_state, free_state).
  // alloc_state is 0 for the initial stack; free_state is never_freed() if it stays live.
  // Both are never_freed() for an element that is never live.
  size_t alloc_state(uint32_t elem) const;
  size_t free_state(uint32_t elem) const;
  size_t never_freed() const { return action_count() + 1; }
  // Elements that appear in neither the initial stack nor any action are never live.
  bool ever_live(uint32_t elem) const { return stack_position_[elem] != kNoIndex; }
  // Live from state 0 (alloc_state(elem) == 0), without finding its allocating action.
  bool in_initial_stack(uint32_t elem) const { return stack_position_[elem] < initial_positions_; }
  size_t stack_size() const { return stack_order_.size(); }  // elements ever live
  // Number of stack positions allocated by the end of `state`, in O(1): the initial stack, then
  // one per allocating action before it. Alloc states grow with stack position.
  uint32_t positions_allocated_by(size_t state) const;

  // Live allocations in state s, bottom to top, with byte offsets. O(live + allocs since the
  // nearest checkpoint), reading position-ordered arrays sequentially.
  std::vector<LiveAllocation> live_at(size_t state) const;
  // The same into `out` (cleared first): repeated queries reuse its memory instead of
  // allocating (and page-faulting in) tens of MB per query on large live sets.
  void live_at(size_t state, std::vector<LiveAllocation>& out) const;
  // The allocation covering byte `offset` in state s, if any.
  std::optional<LiveAllocation> allocation_at(size_t state, uint64_t offset) const;
  // Offset of one element in state s: bytes of live elements below its stack position (its
  // offset when it is live there).
  uint64_t offset_of(uint32_t elem, size_t state) const;

  // memory_viz polygon vertices (t, offset) of one element, exactly as upstream emits them.
  // O(lifetime actions); used for conformance checks and close-up drawing.
  std::vector<std::pair<uint64_t, uint64_t>> polygon(uint32_t elem) const;

  size_t memory_bytes() const;  // resident size of this index
  size_t checkpoint_interval() const { return checkpoint_interval_; }

 private:
  std::vector<uint32_t> replay();          // returns live counts sampled every 64 states
  std::vector<uint32_t> replay_actions();  // the replay itself, into the arrays replay() reserved
  void place_initial_stack();
  void apply_action(size_t action, std::vector<uint32_t>& live_positions);
  uint32_t push_position(uint32_t elem);
  void compute_peaks();
  void check_parts();          // after reading parts: the step counts rebuilt, then check_indices()
  void check_indices() const;  // const: a view is never copied by reading it
  void build_checkpoints(const std::vector<uint32_t>& sampled_live_counts, size_t budget_bytes);
  size_t choose_checkpoint_interval(const std::vector<uint32_t>& sampled_live_counts,
                                    size_t budget_bytes) const;
  // The state in which the element at `position` becomes live (0 for the initial stack).
  size_t position_alloc_state(uint32_t position) const;
  // Calls visit(position, offset) for each live stack position of `state`, bottom to top,
  // until it returns false.
  template <typename Visit>
  void visit_live(size_t state, Visit&& visit) const;

  ReplayInput input_;
  Column<uint32_t> stack_order_;     // stack position -> elem
  Column<uint32_t> stack_position_;  // elem -> stack position (kNoIndex if never live)
  // Per stack position, so live-set scans read memory in order. Alloc states need no array:
  // positions past the initial stack are pushed by the allocating actions, in order (steps_).
  CompactSizes position_size_;
  Column<uint32_t> position_free_state_;
  uint32_t initial_positions_ = 0;  // the initial stack's size
  PackedInt64s total_;              // action_count()+1 entries, bytes as int64 (they wrap back exactly)
  ActionSteps steps_;               // per action: frees? 4 steps?
  uint64_t max_size_ = 0, peak_bytes_ = 0;
  size_t peak_action_ = 0;
  // Checkpoints: sorted live stack positions at every state that is a multiple of
  // checkpoint_interval_, stored flat; checkpoint c is
  // checkpoint_positions_[checkpoint_begin_[c], checkpoint_begin_[c + 1]). Positions allocated
  // after a checkpoint form one contiguous range, so a query scans the checkpoint, then that range.
  size_t checkpoint_interval_ = 1;
  Column<uint32_t> checkpoint_positions_;
  Column<uint64_t> checkpoint_begin_;
};

// A Timeline over `input`, read from `file`. The replay refuses an inconsistent input (live
// memory past 2^63 bytes, elements out of order) with std::invalid_argument, as no reader can
// see it without replaying; here that refusal becomes the file's InputError, the one-line error
// every reader of files gives.
Timeline timeline_from_file(const std::string& file, ReplayInput input);

}  // namespace snapscope
