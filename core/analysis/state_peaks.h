// Largest live total over a range of Timeline states, answered from per-block maxima so a
// table of many phases over a 10M-action trace stays fast without a full sparse table.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/timeline/timeline.h"

namespace snapscope {

struct StatePeak {
  size_t state = 0;  // the first state in the range with the largest total
  uint64_t bytes = 0;
};

class StatePeaks {
 public:
  explicit StatePeaks(const Timeline& timeline);
  // Over states [first, last], both inclusive; first <= last <= action_count().
  StatePeak max_in(size_t first, size_t last) const;

 private:
  static constexpr size_t kBlock = 1024;
  StatePeak scan(size_t first, size_t last) const;

  const Timeline& timeline_;
  std::vector<StatePeak> block_peaks_;  // block b covers states [b * kBlock, (b + 1) * kBlock)
};

}  // namespace snapscope
