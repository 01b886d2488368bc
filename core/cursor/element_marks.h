// A set of elements of one timeline as a bitmap, so the chart can test every drawn instance
// in O(1) (search matches, the allocations of a selected call-tree node or table row).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace snapscope {

class ElementMarks {
 public:
  void assign(size_t element_count, std::span<const uint32_t> elements);
  void clear();
  bool contains(uint32_t elem) const { return elem < bits_.size() && bits_[elem]; }
  size_t count() const { return count_; }
  bool empty() const { return count_ == 0; }
  const std::vector<uint32_t>& elements() const { return elements_; }  // distinct, in given order

 private:
  std::vector<bool> bits_;
  std::vector<uint32_t> elements_;
  size_t count_ = 0;
};

struct ElementHighlights {
  ElementMarks search;  // allocations matching the search bar
  ElementMarks group;   // allocations of the selected call-tree node or moment-table row
  void clear() {
    search.clear();
    group.clear();
  }
};

// Heat scale of the call tree: share of live memory in [0, 1] -> 0xRRGGBB from blue (small)
// through violet to red (large). Shares are compressed (sqrt) so mid-sized nodes stay visible.
uint32_t heat_color(double share);

}  // namespace snapscope
