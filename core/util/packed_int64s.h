// A sequence of int64 values, exact, in 4 bytes each where the values of a run of 256 stay
// within about 2^31 of the run's first value: each is kept as an offset from that base. A run
// with a value that does not fit is kept wide, all its values whole (8 bytes each, beside the
// offsets), so that a lookup stays O(1) however often the values swing: a replay's memory totals
// do, by GBs, in a fifth of their runs (a GPT step scaled to 1.2 GB: 3294 of 16396 runs). INT64_MIN
// (a replay's "no time") takes no more than an offset either. It holds the times of a replay's
// actions and the memory total after each of them: 20M actions take 80 MB instead of 160 MB.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <iterator>
#include <limits>
#include <vector>

#include "core/util/column.h"
#include "core/util/prefault.h"

namespace snapscope {

class PackedInt64s {
 public:
  // Random access over the values, by value (they are decoded, not stored).
  class const_iterator {
   public:
    using iterator_category = std::random_access_iterator_tag;
    using value_type = int64_t;
    using difference_type = std::ptrdiff_t;
    using pointer = void;
    using reference = int64_t;

    const_iterator() = default;
    const_iterator(const PackedInt64s* values, size_t index)
        : values_(values), index_(static_cast<difference_type>(index)) {}
    int64_t operator*() const { return (*values_)[static_cast<size_t>(index_)]; }
    int64_t operator[](difference_type n) const { return (*values_)[static_cast<size_t>(index_ + n)]; }
    const_iterator& operator++() { return *this += 1; }
    const_iterator operator++(int) {
      const_iterator old = *this;
      ++*this;
      return old;
    }
    const_iterator& operator--() { return *this -= 1; }
    const_iterator operator--(int) {
      const_iterator old = *this;
      --*this;
      return old;
    }
    const_iterator& operator+=(difference_type n) {
      index_ += n;
      return *this;
    }
    const_iterator& operator-=(difference_type n) {
      index_ -= n;
      return *this;
    }
    friend const_iterator operator+(const_iterator it, difference_type n) { return it += n; }
    friend const_iterator operator+(difference_type n, const_iterator it) { return it += n; }
    friend const_iterator operator-(const_iterator it, difference_type n) { return it -= n; }
    friend difference_type operator-(const const_iterator& a, const const_iterator& b) {
      return a.index_ - b.index_;
    }
    friend bool operator==(const const_iterator& a, const const_iterator& b) { return a.index_ == b.index_; }
    friend auto operator<=>(const const_iterator& a, const const_iterator& b) {
      return a.index_ <=> b.index_;
    }

   private:
    const PackedInt64s* values_ = nullptr;
    difference_type index_ = 0;
  };

  PackedInt64s() = default;
  PackedInt64s(std::initializer_list<int64_t> values);

  void reserve(size_t count);
  void push_back(int64_t value);
  void set(size_t index, int64_t value);
  void assign(size_t count, int64_t value);
  void clear();

  size_t size() const { return offsets_.size(); }
  bool empty() const { return offsets_.empty(); }
  int64_t operator[](size_t index) const {
    const uint32_t offset = offsets_[index];
    if (offset < kWide) {  // unsigned: a base at one extreme of int64 and its value at the other wrap
      return static_cast<int64_t>(static_cast<uint64_t>(bases_[index / kRun]) + offset - kBias);
    }
    return offset == kAbsent ? kAbsentValue : wide_[wide_slot(index)];
  }
  int64_t front() const { return (*this)[0]; }
  int64_t back() const { return (*this)[size() - 1]; }
  const_iterator begin() const { return {this, 0}; }
  const_iterator end() const { return {this, size()}; }

  size_t memory_bytes() const;
  // The offsets' storage, as reserved: for populating its pages ahead of the fill.
  MemoryRange offsets_memory() const { return {offsets_.data(), offsets_.capacity() * sizeof(uint32_t)}; }
  friend bool operator==(const PackedInt64s& a, const PackedInt64s& b);

  // What a timeline image stores (core/store/timeline_image), in one order for both ways.
  template <typename Self, typename Parts>
  static void parts_of(Self& self, Parts& parts) {
    parts.column(self.offsets_);
    parts.column(self.bases_);
    parts.column(self.run_wide_);
    parts.column(self.wide_);
  }
  // After parts_of has filled them: std::invalid_argument unless every read stays inside them.
  void check_parts() const;

 private:
  static constexpr size_t kRun = 256;  // a run that needs one whole value keeps this many whole
  static constexpr int64_t kAbsentValue = std::numeric_limits<int64_t>::min();
  static constexpr uint32_t kAbsent = 0xffffffff;       // kAbsentValue, in a run that is not wide
  static constexpr uint32_t kWide = 0xfffffffe;         // in wide_ (every value of a wide run)
  static constexpr uint32_t kNotWide = 0xffffffff;      // run_wide_: the run is all offsets
  static constexpr uint64_t kBias = uint64_t{1} << 31;  // offset kBias is the base itself

  size_t wide_slot(size_t index) const { return size_t{run_wide_[index / kRun]} * kRun + index % kRun; }
  void make_wide(size_t run);  // moves the run's values into wide_

  Column<uint32_t> offsets_;   // per value: kBias + its distance from its run's base, or a marker
  Column<int64_t> bases_;      // per run: its first value other than kAbsentValue (that: none yet)
  Column<uint32_t> run_wide_;  // per run: its block of kRun values in wide_, or kNotWide
  Column<int64_t> wide_;       // the wide runs' values, kRun per run
};

}  // namespace snapscope
