#include "core/timeline/action_steps.h"

#include <bit>

namespace snapscope {

void ActionSteps::reserve(size_t actions) {
  const size_t words = (actions + 63) / 64;
  frees_.reserve(words);
  shifts_.reserve(words);
  shifts_before_.reserve(words);
  frees_before_.reserve(words);
}

void ActionSteps::push_back(bool frees, bool shifts) {
  if (size_ % 64 == 0) {
    frees_.push_back(0);
    shifts_.push_back(0);
    shifts_before_.push_back(shifts_total_);
    frees_before_.push_back(frees_total_);
  }
  const uint64_t mask = uint64_t{1} << (size_ % 64);
  if (frees) {
    frees_.back() |= mask;
    ++frees_total_;
  } else if ((size_ - frees_total_) % 64 == 0) {  // this allocation's number is a multiple of 64
    alloc_sample_word_.push_back(static_cast<uint32_t>(frees_.size() - 1));
  }
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

size_t ActionSteps::allocs_before(size_t action) const {
  if (action == size_) return size_ - frees_total_;
  const size_t word = action / 64;
  const uint64_t below = (uint64_t{1} << (action % 64)) - 1;
  return action - frees_before_[word] - static_cast<size_t>(std::popcount(frees_[word] & below));
}

size_t ActionSteps::alloc_action(size_t alloc) const {
  size_t word = alloc_sample_word_[alloc / 64];
  while (word + 1 < frees_.size() && allocs_before_word(word + 1) <= alloc) ++word;
  // The (alloc - allocs_before_word(word))-th clear bit of the word, bits past size() excluded.
  uint64_t allocs = ~frees_[word];
  for (size_t skip = alloc - allocs_before_word(word); skip > 0; --skip) allocs &= allocs - 1;
  return 64 * word + static_cast<size_t>(std::countr_zero(allocs));
}

size_t ActionSteps::memory_bytes() const {
  return (frees_.capacity() + shifts_.capacity()) * sizeof(uint64_t) +
         (shifts_before_.capacity() + frees_before_.capacity() + alloc_sample_word_.capacity()) *
             sizeof(uint32_t);
}

}  // namespace snapscope
