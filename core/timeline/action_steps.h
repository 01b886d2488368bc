// Per action of a replay: whether it frees its element, and whether it takes 4 timesteps (a
// free that slides the live elements above it down) instead of 1. Two bits per action plus
// running counts per 64 actions, instead of a 32-bit step end and a 32-bit stack position per
// action: 20M actions take 8 MB instead of 160 MB. Step ends and allocations are counted in O(1);
// the action of the k-th allocation is found from a sample per 64 allocations.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/util/column.h"

namespace snapscope {

class ActionSteps {
 public:
  void reserve(size_t actions);
  void push_back(bool frees, bool shifts);

  size_t size() const { return size_; }
  bool frees(size_t action) const { return bit(frees_, action); }
  bool shifts(size_t action) const { return bit(shifts_, action); }
  // Action i occupies steps [step_begin(i), step_end(i)).
  uint64_t step_end(size_t action) const;
  uint64_t step_begin(size_t action) const { return action == 0 ? 0 : step_end(action - 1); }
  uint64_t timesteps() const { return size_ == 0 ? 0 : step_end(size_ - 1); }
  // The first action whose steps end after `step` (size() when none does).
  size_t action_at_step(uint64_t step) const;
  // How many of the actions before `action` allocate (do not free); action <= size().
  size_t allocs_before(size_t action) const;
  // The action of the allocation numbered `alloc` (0-based, in action order); it must exist.
  size_t alloc_action(size_t alloc) const;

  size_t memory_bytes() const;

  // What a timeline image stores (core/store/timeline_image): the count and the two bit arrays;
  // rebuild_counts() makes the rest from them.
  template <typename Self, typename Parts>
  static void parts_of(Self& self, Parts& parts) {
    parts.value(self.size_);
    parts.column(self.frees_);
    parts.column(self.shifts_);
  }
  // After parts_of has filled the bits: checks their sizes (std::invalid_argument) and counts
  // what push_back would have counted.
  void rebuild_counts();

 private:
  static bool bit(const Column<uint64_t>& words, size_t action) {
    return (words[action / 64] >> (action % 64)) & 1;
  }
  // Step where the first action of word `word` begins.
  uint64_t word_begin(size_t word) const { return uint64_t{64} * word + 3 * uint64_t{shifts_before_[word]}; }
  size_t allocs_before_word(size_t word) const { return 64 * word - frees_before_[word]; }

  Column<uint64_t> frees_, shifts_;  // bit i % 64 of word i / 64 is action i's
  // Before each word: 4-step actions, and frees (a replay has < 2^32 actions).
  Column<uint32_t> shifts_before_, frees_before_;
  Column<uint32_t> alloc_sample_word_;  // the word holding allocation 64 j, for each j
  size_t size_ = 0;
  uint32_t shifts_total_ = 0, frees_total_ = 0;
};

}  // namespace snapscope
