// Bytes of each category at any state, for the stacked-area view (torch.profiler's memory
// timeline, but exact): per-category totals stored every `interval` actions, and a query replays
// at most interval - 1 actions from the nearest one. 10M actions, 7 categories: 2.2 MB.
#pragma once

#include <cstdint>
#include <vector>

#include "core/classify/classifier.h"
#include "core/timeline/timeline.h"

namespace snapscope {

class CategoryTimeline {
 public:
  static constexpr size_t kDefaultInterval = 256;
  // Keeps references to both: they must outlive it.
  CategoryTimeline(const Timeline& timeline, const Classification& classification,
                   size_t interval = kDefaultInterval);

  size_t category_count() const { return categories_; }
  // Bytes per category live in `state` (out gets category_count() entries); they sum to
  // timeline.total_at_state(state).
  void bytes_at(size_t state, std::vector<uint64_t>& out) const;
  size_t memory_bytes() const { return checkpoints_.size() * sizeof(uint64_t); }

 private:
  void apply(size_t action, std::vector<uint64_t>& bytes) const;

  const Timeline& timeline_;
  const Classification& classification_;
  size_t categories_ = 0;
  size_t interval_ = kDefaultInterval;
  std::vector<uint64_t> checkpoints_;  // categories_ values per stored state (every interval_)
};

}  // namespace snapscope
