#include "core/analysis/state_peaks.h"

#include <algorithm>

namespace snapscope {
namespace {

void keep_larger(StatePeak& best, StatePeak candidate) {
  if (candidate.bytes > best.bytes) best = candidate;
}

}  // namespace

StatePeaks::StatePeaks(const Timeline& timeline) : timeline_(timeline) {
  const size_t states = timeline.action_count() + 1;
  for (size_t first = 0; first < states; first += kBlock) {
    block_peaks_.push_back(scan(first, std::min(states, first + kBlock) - 1));
  }
}

StatePeak StatePeaks::scan(size_t first, size_t last) const {
  StatePeak best{first, timeline_.total_at_state(first)};
  for (size_t state = first + 1; state <= last; ++state)
    keep_larger(best, {state, timeline_.total_at_state(state)});
  return best;
}

StatePeak StatePeaks::max_in(size_t first, size_t last) const {
  const size_t first_block = first / kBlock, last_block = last / kBlock;
  if (first_block == last_block) return scan(first, last);
  StatePeak best = scan(first, (first_block + 1) * kBlock - 1);
  for (size_t block = first_block + 1; block < last_block; ++block) keep_larger(best, block_peaks_[block]);
  keep_larger(best, scan(last_block * kBlock, last));
  return best;
}

}  // namespace snapscope
