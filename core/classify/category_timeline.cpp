#include "core/classify/category_timeline.h"

#include <algorithm>

namespace snapscope {

CategoryTimeline::CategoryTimeline(const Timeline& timeline, const Classification& classification,
                                   size_t interval)
    : timeline_(timeline),
      classification_(classification),
      categories_(classification.names.size()),
      interval_(std::max<size_t>(interval, 1)) {
  std::vector<uint64_t> bytes(categories_, 0);
  for (const LiveAllocation& allocation : timeline.live_at(0))
    bytes[classification.categories[allocation.elem]] += allocation.size;
  checkpoints_.reserve((timeline.action_count() / interval_ + 1) * categories_);
  for (size_t state = 0;; ++state) {
    if (state % interval_ == 0) checkpoints_.insert(checkpoints_.end(), bytes.begin(), bytes.end());
    if (state == timeline.action_count()) break;
    apply(state, bytes);
  }
}

void CategoryTimeline::apply(size_t action, std::vector<uint64_t>& bytes) const {
  const uint32_t elem = timeline_.action_elem(action);
  const uint64_t size = timeline_.element(elem).size;
  uint64_t& total = bytes[classification_.categories[elem]];
  if (timeline_.action_is_free(action)) {
    total -= size;
  } else {
    total += size;
  }
}

void CategoryTimeline::bytes_at(size_t state, std::vector<uint64_t>& out) const {
  state = std::min(state, timeline_.action_count());
  const size_t checkpoint = state / interval_;
  out.assign(checkpoints_.begin() + static_cast<ptrdiff_t>(checkpoint * categories_),
             checkpoints_.begin() + static_cast<ptrdiff_t>((checkpoint + 1) * categories_));
  for (size_t action = checkpoint * interval_; action < state; ++action) apply(action, out);
}

}  // namespace snapscope
