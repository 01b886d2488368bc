// The time_us of each action of a replay (kNoTime where absent), in 4 bytes per action instead
// of 8: an offset from a base shared by each run of 4096 actions. A run's base is its first
// time; a trace's times rarely go backwards or span 71 minutes within 4096 actions, and the
// times that do are kept whole beside the offsets. 20M actions: 80 MB instead of 160 MB.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <iterator>
#include <utility>
#include <vector>

#include "core/snapshot/model.h"

namespace snapscope {

class ActionTimes {
 public:
  // Random access over the times, by value (they are decoded, not stored).
  class const_iterator {
   public:
    using iterator_category = std::random_access_iterator_tag;
    using value_type = int64_t;
    using difference_type = std::ptrdiff_t;
    using pointer = void;
    using reference = int64_t;

    const_iterator() = default;
    const_iterator(const ActionTimes* times, size_t index)
        : times_(times), index_(static_cast<difference_type>(index)) {}
    int64_t operator*() const { return (*times_)[static_cast<size_t>(index_)]; }
    int64_t operator[](difference_type n) const { return (*times_)[static_cast<size_t>(index_ + n)]; }
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
    const ActionTimes* times_ = nullptr;
    difference_type index_ = 0;
  };

  ActionTimes() = default;
  ActionTimes(std::initializer_list<int64_t> times);

  void reserve(size_t actions);
  void push_back(int64_t time_us);
  void set(size_t index, int64_t time_us);
  void assign(size_t actions, int64_t time_us);
  void clear();

  size_t size() const { return offsets_.size(); }
  bool empty() const { return offsets_.empty(); }
  int64_t operator[](size_t index) const {
    const uint32_t offset = offsets_[index];
    if (offset < kWhole) return bases_[index / kRun] + offset;
    return offset == kAbsent ? kNoTime : whole_time(index);
  }
  int64_t front() const { return (*this)[0]; }
  int64_t back() const { return (*this)[size() - 1]; }
  const_iterator begin() const { return {this, 0}; }
  const_iterator end() const { return {this, size()}; }

  size_t memory_bytes() const;
  friend bool operator==(const ActionTimes& a, const ActionTimes& b);

 private:
  static constexpr size_t kRun = 4096;
  static constexpr uint32_t kAbsent = 0xffffffff;  // kNoTime
  static constexpr uint32_t kWhole = 0xfffffffe;   // in whole_

  using WholeTimes = std::vector<std::pair<size_t, int64_t>>;
  // whole_'s entry for `index`, or where it would go.
  WholeTimes::const_iterator whole_at(size_t index) const {
    return std::lower_bound(whole_.begin(), whole_.end(), std::pair{index, INT64_MIN});
  }
  int64_t whole_time(size_t index) const;
  void store(size_t index, int64_t time_us);

  std::vector<uint32_t> offsets_;  // per action: from its run's base, or a marker
  std::vector<int64_t> bases_;     // per run: its first time (kNoTime: none yet)
  WholeTimes whole_;               // (action, time) for kWhole, ascending action
};

}  // namespace snapscope
