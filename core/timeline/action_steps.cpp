#include "core/timeline/action_steps.h"

#include <algorithm>
#include <bit>
#include <limits>
#include <stdexcept>

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

namespace {

// The bit index of the set bit numbered `rank` (0-based, from bit 0) of `bits`, which has more
// than `rank` set bits. Without the POPCNT instruction (not in baseline x86-64) std::popcount is
// a library call: the bytes' counts are summed in one multiply instead.
unsigned select_bit(uint64_t bits, unsigned rank) {
  uint64_t counts = bits - ((bits >> 1) & 0x5555555555555555);
  counts = (counts & 0x3333333333333333) + ((counts >> 2) & 0x3333333333333333);
  counts = (counts + (counts >> 4)) & 0x0f0f0f0f0f0f0f0f;  // per byte
  const uint64_t through = counts * 0x0101010101010101;    // byte i: bytes 0..i
  unsigned shift = 0, below = 0;
  while (((through >> shift) & 0xff) <= rank) {
    below = static_cast<unsigned>((through >> shift) & 0xff);
    shift += 8;
  }
  uint64_t byte = (bits >> shift) & 0xff;
  for (unsigned skip = rank - below; skip > 0; --skip) byte &= byte - 1;
  return shift + static_cast<unsigned>(std::countr_zero(byte));
}

}  // namespace

size_t ActionSteps::alloc_action(size_t alloc) const {
  size_t word = alloc_sample_word_[alloc / 64];
  while (word + 1 < frees_.size() && allocs_before_word(word + 1) <= alloc) ++word;
  // Allocations are the clear bits; those past size() in the last word come after any that exist.
  const auto rank = static_cast<unsigned>(alloc - allocs_before_word(word));
  return 64 * word + select_bit(~frees_[word], rank);
}

void ActionSteps::rebuild_counts() {
  const Column<uint64_t>& frees = frees_;  // read through const: a mapped view is never copied
  const Column<uint64_t>& shifts = shifts_;
  const size_t words = (size_ + 63) / 64;
  if (frees.size() != words || shifts.size() != words)
    throw std::invalid_argument("action steps: bit arrays of the wrong size");
  if (size_ > std::numeric_limits<uint32_t>::max())
    throw std::invalid_argument("action steps: too many actions");
  const uint64_t unused = size_ % 64 == 0 ? 0 : ~uint64_t{0} << (size_ % 64);
  if (words > 0 && ((frees.back() | shifts.back()) & unused) != 0)
    throw std::invalid_argument("action steps: bits past the last action");
  shifts_before_.clear();
  frees_before_.clear();
  alloc_sample_word_.clear();
  shifts_total_ = frees_total_ = 0;
  for (size_t word = 0; word < words; ++word) {
    shifts_before_.push_back(shifts_total_);
    frees_before_.push_back(frees_total_);
    const size_t allocs_before = 64 * word - frees_total_;
    const size_t actions = std::min<size_t>(64, size_ - 64 * word);
    const auto freeing = static_cast<uint32_t>(std::popcount(frees[word]));
    // The allocation numbers that are multiples of 64 and fall in this word.
    for (size_t sample = (allocs_before + 63) / 64 * 64; sample < allocs_before + actions - freeing;
         sample += 64)
      alloc_sample_word_.push_back(static_cast<uint32_t>(word));
    frees_total_ += freeing;
    shifts_total_ += static_cast<uint32_t>(std::popcount(shifts[word]));
  }
}

size_t ActionSteps::memory_bytes() const {
  return (frees_.capacity() + shifts_.capacity()) * sizeof(uint64_t) +
         (shifts_before_.capacity() + frees_before_.capacity() + alloc_sample_word_.capacity()) *
             sizeof(uint32_t);
}

}  // namespace snapscope
