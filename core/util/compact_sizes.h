// A sequence of byte sizes in 4 bytes each: a size of 4 GiB or more, rare even among GPU
// allocations, is kept whole beside the others. Reading one is a load and a compare, as cheap as
// reading a uint64 array of half the density: 10M stack positions take 40 MB instead of 80 MB.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <utility>
#include <vector>

#include "core/util/column.h"
#include "core/util/prefault.h"

namespace snapscope {

class CompactSizes {
 public:
  void reserve(size_t count) { small_.reserve(count); }
  void push_back(uint64_t size) {
    if (size >= kLarge) large_.push_back({small_.size(), size});
    small_.push_back(size >= kLarge ? kLarge : static_cast<uint32_t>(size));
  }

  size_t size() const { return small_.size(); }
  uint64_t operator[](size_t index) const {
    const uint32_t small = small_[index];
    return small != kLarge ? small : large_value(index);
  }

  size_t memory_bytes() const {
    return small_.capacity() * sizeof(uint32_t) + large_.capacity() * sizeof(large_[0]);
  }
  // What a timeline image stores (core/store/timeline_image), in one order for both ways.
  template <typename Self, typename Parts>
  static void parts_of(Self& self, Parts& parts) {
    parts.column(self.small_);
    parts.column(self.large_);
  }
  // After parts_of has filled them: std::invalid_argument unless every large size has its entry.
  void check_parts() const {
    size_t next = 0;
    for (size_t index = 0; index < small_.size(); ++index) {
      if (small_[index] != kLarge) continue;
      if (next == large_.size() || large_[next].index != index)
        throw std::invalid_argument("sizes: a large size without its entry");
      ++next;
    }
    if (next != large_.size()) throw std::invalid_argument("sizes: an entry for no large size");
  }

  // The 4-byte sizes' storage, as reserved: for populating its pages ahead of the fill.
  MemoryRange small_memory() const { return {small_.data(), small_.capacity() * sizeof(uint32_t)}; }

 private:
  static constexpr uint32_t kLarge = 0xffffffff;  // this size and above are in large_
  struct LargeSize {
    uint64_t index = 0;
    uint64_t size = 0;
  };

  uint64_t large_value(size_t index) const {
    const auto it =
        std::lower_bound(large_.begin(), large_.end(), index,
                         [](const LargeSize& large, size_t wanted) { return large.index < wanted; });
    return it->size;
  }

  Column<uint32_t> small_;
  Column<LargeSize> large_;  // ascending index
};

}  // namespace snapscope
