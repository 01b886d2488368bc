// The memory_viz replay (process_alloc_data phase 3) reduced to O(events) numbers; polygons
// and live sets are rebuilt on demand from them.
#include "core/timeline/timeline.h"

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>

#include "core/snapshot/snapshot_reader.h"
#include "core/util/prefault.h"
#include "core/util/run_beside.h"

namespace snapscope {

namespace {

// Live counts are sampled every kCountStride states to size the checkpoints; checkpoint
// intervals are multiples of it.
constexpr size_t kCountStride = 64;

// Below this the index arrays are populated by the replay's own page faults.
constexpr size_t kPrefaultMinBytes = size_t{16} << 20;

[[noreturn]] void reject(const std::string& what) { throw std::invalid_argument("replay input: " + what); }

// Live bytes are kept as int64: a total past 2^63 - 1 is refused, never wrapped.
uint64_t checked_total(uint64_t before, uint64_t size) {
  constexpr auto kMax = static_cast<uint64_t>(std::numeric_limits<int64_t>::max());
  if (before > kMax || size > kMax - before) reject("live memory passes 2^63 bytes (8 EiB)");
  return before + size;
}

}  // namespace

// No shrink_to_fit of the input: capacity that was reserved but never written costs no
// memory, while the copy would briefly double the two biggest arrays.
Timeline::Timeline(ReplayInput input, size_t checkpoint_budget_bytes) : input_(std::move(input)) {
  const std::vector<uint32_t> sampled_live_counts = replay();
  compute_peaks();
  build_checkpoints(sampled_live_counts, checkpoint_budget_bytes);
}

std::vector<uint32_t> Timeline::replay() {
  const size_t elements = input_.elements.size();
  if (never_freed() >= kNoIndex) reject("too many actions");
  // ActionSteps and the callers count steps in 32 bits (at most 4 per action): far beyond what
  // fits in memory anyway.
  if (action_count() > std::numeric_limits<uint32_t>::max() / 4) reject("too many actions");
  stack_position_.reserve(elements);
  advise_huge_pages(stack_position_.data(), elements * sizeof(uint32_t));  // before the fill faults it in
  stack_position_.assign(elements, kNoIndex);
  stack_order_.reserve(elements);
  position_size_.reserve(elements);
  position_free_state_.reserve(elements);
  steps_.reserve(action_count());
  total_.reserve(action_count() + 1);

  // The arrays are filled front to back below; the other core backs them with pages meanwhile.
  const auto capacity = [](const auto& array) {
    return MemoryRange{array.data(), array.capacity() * sizeof(array[0])};
  };
  const MemoryRange arrays[] = {capacity(stack_order_), position_size_.small_memory(),
                                capacity(position_free_state_), total_.offsets_memory()};
  size_t bytes = 0;
  for (const MemoryRange& array : arrays) bytes += array.bytes;
  if (bytes < kPrefaultMinBytes) return replay_actions();  // not worth a thread
  for (const MemoryRange& array : arrays) advise_huge_pages(array.begin, array.bytes);
  std::vector<uint32_t> sampled_live_counts;
  run_beside([&] { populate_in_step(arrays); }, [&] { sampled_live_counts = replay_actions(); });
  return sampled_live_counts;
}

std::vector<uint32_t> Timeline::replay_actions() {
  place_initial_stack();
  // Live positions, bottom to top; freed ones below the top are dropped lazily when they surface.
  std::vector<uint32_t> live_positions(stack_order_.size());
  for (uint32_t pos = 0; pos < live_positions.size(); ++pos) live_positions[pos] = pos;

  std::vector<uint32_t> sampled_live_counts;
  size_t live_count = stack_order_.size();
  for (size_t action = 0; action < action_count(); ++action) {
    if (action % kCountStride == 0) sampled_live_counts.push_back(static_cast<uint32_t>(live_count));
    apply_action(action, live_positions);
    live_count = action_is_free(action) ? live_count - 1 : live_count + 1;
  }
  if (action_count() % kCountStride == 0) sampled_live_counts.push_back(static_cast<uint32_t>(live_count));
  return sampled_live_counts;
}

uint32_t Timeline::push_position(uint32_t elem) {
  const auto pos = static_cast<uint32_t>(stack_order_.size());
  stack_position_[elem] = pos;
  stack_order_.push_back(elem);
  position_size_.push_back(input_.elements[elem].size);
  position_free_state_.push_back(static_cast<uint32_t>(never_freed()));
  return pos;
}

void Timeline::place_initial_stack() {
  uint64_t total = 0;
  for (uint32_t elem : input_.initial_stack) {
    if (elem >= input_.elements.size()) reject("initial stack refers to a missing element");
    if (stack_position_[elem] != kNoIndex) reject("element " + std::to_string(elem) + " is stacked twice");
    push_position(elem);
    total = checked_total(total, input_.elements[elem].size);
  }
  initial_positions_ = static_cast<uint32_t>(stack_order_.size());
  total_.push_back(static_cast<int64_t>(total));
}

void Timeline::apply_action(size_t action, std::vector<uint32_t>& live_positions) {
  const uint32_t elem = input_.actions[action].elem;
  if (elem >= input_.elements.size()) {
    reject("action " + std::to_string(action) + " refers to a missing element");
  }
  const auto state_after = static_cast<uint32_t>(action + 1);
  if (stack_position_[elem] == kNoIndex) {  // first appearance: alloc on top
    const uint32_t pos = push_position(elem);
    live_positions.push_back(pos);
    total_.push_back(static_cast<int64_t>(checked_total(total_before(action), position_size_[pos])));
    steps_.push_back(/*frees=*/false, /*shifts=*/false);
    return;
  }
  const uint32_t pos = stack_position_[elem];
  if (position_free_state_[pos] != never_freed()) {
    reject("element " + std::to_string(elem) + " is used after its free");
  }
  while (position_free_state_[live_positions.back()] <= action) live_positions.pop_back();
  const bool has_elements_above = live_positions.back() != pos;
  position_free_state_[pos] = state_after;
  total_.push_back(static_cast<int64_t>(total_before(action) - position_size_[pos]));
  steps_.push_back(/*frees=*/true, /*shifts=*/has_elements_above);
}

void Timeline::compute_peaks() {
  for (size_t action = 0; action < action_count(); ++action) {
    max_size_ = std::max(max_size_, total_after(action));
    const uint64_t shown = std::max(total_before(action), total_after(action));
    if (shown > peak_bytes_ || action == 0) {
      peak_bytes_ = shown;
      peak_action_ = action;
    }
  }
}

size_t Timeline::choose_checkpoint_interval(const std::vector<uint32_t>& sampled_live_counts,
                                            size_t budget_bytes) const {
  size_t interval = kCountStride;
  while (interval <= action_count()) {
    const size_t stride = interval / kCountStride;
    uint64_t bytes = 0;
    for (size_t sample = 0; sample < sampled_live_counts.size(); sample += stride) {
      bytes += sampled_live_counts[sample] * sizeof(uint32_t) + sizeof(uint64_t);
    }
    if (bytes <= budget_bytes) return interval;
    interval *= 2;
  }
  return interval;  // a single checkpoint, at state 0
}

void Timeline::build_checkpoints(const std::vector<uint32_t>& sampled_live_counts, size_t budget_bytes) {
  checkpoint_interval_ = choose_checkpoint_interval(sampled_live_counts, budget_bytes);
  const size_t count = action_count() / checkpoint_interval_ + 1;
  checkpoint_begin_.reserve(count + 1);
  checkpoint_begin_.push_back(0);
  // Checkpoint c holds the live count sampled at its state: reserve exactly, so the biggest
  // array of the index is never copied while growing.
  const size_t stride = checkpoint_interval_ / kCountStride;
  size_t positions = 0;
  for (size_t sample = 0; sample < sampled_live_counts.size(); sample += stride)
    positions += sampled_live_counts[sample];
  checkpoint_positions_.reserve(positions);
  advise_huge_pages(checkpoint_positions_.data(), positions * sizeof(uint32_t));  // up to the budget
  // Checkpoint c = survivors of checkpoint c-1 + positions allocated since and still live.
  // Allocs get increasing stack positions, so appending them keeps the list sorted.
  uint32_t allocated = positions_allocated_by(0);
  for (uint32_t pos = 0; pos < allocated; ++pos) checkpoint_positions_.push_back(pos);
  checkpoint_begin_.push_back(checkpoint_positions_.size());
  for (size_t c = 1; c < count; ++c) {
    const size_t state = c * checkpoint_interval_;
    for (uint64_t k = checkpoint_begin_[c - 1]; k < checkpoint_begin_[c]; ++k) {
      const uint32_t pos = checkpoint_positions_[k];
      if (position_free_state_[pos] > state) checkpoint_positions_.push_back(pos);
    }
    const uint32_t allocated_now = positions_allocated_by(state);
    for (uint32_t pos = allocated; pos < allocated_now; ++pos) {
      if (position_free_state_[pos] > state) checkpoint_positions_.push_back(pos);
    }
    allocated = allocated_now;
    checkpoint_begin_.push_back(checkpoint_positions_.size());
  }
}

void Timeline::check_parts() {
  if (never_freed() >= kNoIndex || action_count() > std::numeric_limits<uint32_t>::max() / 4)
    reject("too many actions");
  steps_.rebuild_counts();
  check_indices();
}

void Timeline::check_indices() const {
  input_.check_parts();
  total_.check_parts();
  position_size_.check_parts();
  const size_t elements = element_count(), positions = stack_order_.size(), actions = action_count();
  if (stack_position_.size() != elements || positions > elements || steps_.size() != actions ||
      total_.size() != actions + 1 || position_size_.size() != positions ||
      position_free_state_.size() != positions || initial_positions_ != input_.initial_stack.size() ||
      peak_action_ > actions) {
    reject("timeline parts of inconsistent sizes");
  }
  for (size_t pos = 0; pos < positions; ++pos) {
    const uint32_t elem = stack_order_[pos];
    if (elem >= elements || stack_position_[elem] != pos) reject("stack order and positions disagree");
    if (position_free_state_[pos] > never_freed()) reject("a free state past the end");
  }
  size_t placed = 0;
  for (const uint32_t position : stack_position_) placed += position != kNoIndex;
  if (placed != positions) reject("stack positions that no element holds");
  // The k-th allocating action pushes position initial_positions_ + k; a free names a placed one.
  uint32_t next = initial_positions_;
  for (size_t action = 0; action < actions; ++action) {
    const uint32_t pos = stack_position_[input_.actions[action].elem];
    if (action_is_free(action) ? pos >= next : pos != next++) reject("actions and stack positions disagree");
  }
  if (next != positions) reject("actions and stack positions disagree");
  const size_t checkpoints = actions / std::max<size_t>(checkpoint_interval_, 1) + 1;
  if (checkpoint_interval_ == 0 || checkpoint_begin_.size() != checkpoints + 1 ||
      checkpoint_begin_.front() != 0 || checkpoint_begin_.back() != checkpoint_positions_.size()) {
    reject("checkpoints of inconsistent sizes");
  }
  for (size_t c = 1; c < checkpoint_begin_.size(); ++c)
    if (checkpoint_begin_[c] < checkpoint_begin_[c - 1]) reject("checkpoints out of order");
  for (const uint32_t pos : checkpoint_positions_)
    if (pos >= positions) reject("a checkpoint names a missing position");
}

uint32_t Timeline::positions_allocated_by(size_t state) const {
  return initial_positions_ + static_cast<uint32_t>(steps_.allocs_before(std::min(state, action_count())));
}

size_t Timeline::position_alloc_state(uint32_t position) const {
  return position < initial_positions_ ? 0 : steps_.alloc_action(position - initial_positions_) + 1;
}

size_t Timeline::alloc_state(uint32_t elem) const {
  return ever_live(elem) ? position_alloc_state(stack_position_[elem]) : never_freed();
}

size_t Timeline::free_state(uint32_t elem) const {
  return ever_live(elem) ? position_free_state_[stack_position_[elem]] : never_freed();
}

size_t Timeline::action_at_step(uint64_t step) const { return steps_.action_at_step(step); }

uint64_t Timeline::memory_at_step(uint64_t step) const {
  const size_t action = action_at_step(step);
  return std::max(total_before(action), total_after(action));
}

template <typename Visit>
void Timeline::visit_live(size_t state, Visit&& visit) const {
  const size_t checkpoint = state / checkpoint_interval_;
  uint64_t offset = 0;
  const auto visit_if_live = [&](uint32_t pos) {
    if (position_free_state_[pos] <= state) return true;
    if (!visit(pos, offset)) return false;
    offset += position_size_[pos];
    return true;
  };
  for (uint64_t k = checkpoint_begin_[checkpoint]; k < checkpoint_begin_[checkpoint + 1]; ++k) {
    if (!visit_if_live(checkpoint_positions_[k])) return;
  }
  const uint32_t end = positions_allocated_by(state);
  for (uint32_t pos = positions_allocated_by(checkpoint * checkpoint_interval_); pos < end; ++pos) {
    if (!visit_if_live(pos)) return;
  }
}

std::vector<LiveAllocation> Timeline::live_at(size_t state) const {
  std::vector<LiveAllocation> live;
  live_at(state, live);
  return live;
}

void Timeline::live_at(size_t state, std::vector<LiveAllocation>& out) const {
  out.clear();
  const size_t checkpoint = state / checkpoint_interval_;
  out.reserve(checkpoint_begin_[checkpoint + 1] - checkpoint_begin_[checkpoint] +
              positions_allocated_by(state) -
              positions_allocated_by(checkpoint * checkpoint_interval_));  // an upper bound
  visit_live(state, [&](uint32_t pos, uint64_t offset) {
    out.push_back({stack_order_[pos], offset, position_size_[pos]});
    return true;
  });
}

std::optional<LiveAllocation> Timeline::allocation_at(size_t state, uint64_t offset) const {
  std::optional<LiveAllocation> found;
  // Offsets only grow going up the stack: the first element ending above `offset` decides.
  visit_live(state, [&](uint32_t pos, uint64_t pos_offset) {
    const uint64_t size = position_size_[pos];
    if (pos_offset + size <= offset) return true;
    if (pos_offset <= offset) found = LiveAllocation{stack_order_[pos], pos_offset, size};
    return false;
  });
  return found;
}

uint64_t Timeline::offset_of(uint32_t elem, size_t state) const {
  const uint32_t position = stack_position_[elem];
  uint64_t result = total_at_state(state);
  visit_live(state, [&](uint32_t pos, uint64_t offset) {
    if (pos < position) return true;
    result = offset;
    return false;
  });
  return result;
}

std::vector<std::pair<uint64_t, uint64_t>> Timeline::polygon(uint32_t elem) const {
  std::vector<std::pair<uint64_t, uint64_t>> vertices;
  if (!ever_live(elem)) return vertices;
  const uint32_t position = stack_position_[elem];
  const size_t first_state = position_alloc_state(position);
  const bool freed = position_free_state_[position] != never_freed();
  const size_t last_state = freed ? position_free_state_[position] - 1 : action_count();
  uint64_t offset = offset_of(elem, first_state);
  vertices.emplace_back(first_state == 0 ? 0 : step_begin(first_state - 1), offset);
  // Only frees below it move it: a 3-step ramp down by the freed size.
  for (size_t action = first_state; action < last_state; ++action) {
    if (!action_is_free(action)) continue;
    const uint32_t other = action_stack_position(action);
    if (other > position) continue;
    const uint64_t ramp_start = step_begin(action) + 1;
    vertices.emplace_back(ramp_start, offset);
    offset -= position_size_[other];
    vertices.emplace_back(ramp_start + 3, offset);
  }
  vertices.emplace_back(freed ? step_begin(last_state) + 1 : timesteps(), offset);
  return vertices;
}

size_t Timeline::actions_through_event(int64_t event) const {
  size_t begin = 0, end = action_count();
  while (begin < end) {
    const size_t middle = begin + (end - begin) / 2;
    if (action_event(middle) <= event) {
      begin = middle + 1;
    } else {
      end = middle;
    }
  }
  return begin;
}

size_t Timeline::memory_bytes() const {
  const auto bytes = [](const auto& v) { return v.capacity() * sizeof(v[0]); };
  return bytes(input_.elements) + bytes(input_.initial_stack) + bytes(input_.actions) +
         input_.action_time_us.memory_bytes() + bytes(stack_order_) + bytes(stack_position_) +
         position_size_.memory_bytes() + bytes(position_free_state_) + total_.memory_bytes() +
         steps_.memory_bytes() + bytes(checkpoint_positions_) + bytes(checkpoint_begin_);
}

Timeline timeline_from_file(const std::string& file, ReplayInput input) {
  try {
    return Timeline(std::move(input));
  } catch (const std::invalid_argument& refused) {
    throw InputError(file + ": " + refused.what());
  }
}

}  // namespace snapscope
