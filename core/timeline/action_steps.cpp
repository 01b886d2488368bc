#include "core/timeline/action_steps.h"

#include <bit>

namespace snapscope {

void ActionSteps::reserve(size_t actions) {
  const size_t words = (actions + 63) / 64;
  frees_.reserve(words);
  shifts_.reserve(words);
  shifts_before_.reserve(words);
}

void ActionSteps::push_back(bool frees, bool shifts) {
  if (size_ % 64 == 0) {
    frees_.push_back(0);
    shifts_.push_back(0);
    shifts_before_.push_back(shifts_total_);
  }
  const uint64_t mask = uint64_t{1} << (size_ % 64);
  if (frees) frees_.back() |= mask;
  if (shifts) {
    shifts_.back() |= mask;
    ++shifts_total_;
  }
  ++size_;
}

uint64_t ActionSteps::step_end(size_t action) const {
  const size_t word = action / 64;
  const unsigned through = static_cast<unsigned>(action % 64) + 1;  // bits 0 .. action % 64
  const uint64_t mask = through == 64 ? ~uint64_t{0} : (uint64_t{1} << through) - 1;
  const uint64_t shifted = uint64_t{shifts_before_[word]} + std::popcount(shifts_[word] & mask);
  return uint64_t{action} + 1 + 3 * shifted;
}

size_t ActionSteps::action_at_step(uint64_t step) const {
  // The last word beginning at or before `step` (word beginnings only grow), then its actions.
  size_t lo = 0, hi = shifts_before_.size();
  while (hi - lo > 1) {
    const size_t mid = lo + (hi - lo) / 2;
    if (word_begin(mid) <= step) {
      lo = mid;
    } else {
      hi = mid;
    }
  }
  for (size_t action = lo * 64; action < size_ && action < lo * 64 + 64; ++action) {
    if (step_end(action) > step) return action;
  }
  return size_;
}

size_t ActionSteps::memory_bytes() const {
  return (frees_.capacity() + shifts_.capacity()) * sizeof(uint64_t) +
         shifts_before_.capacity() * sizeof(uint32_t);
}

}  // namespace snapscope
