#include "core/timeline/memory_pyramid.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace snapscope {

MemoryPyramid::MemoryPyramid(const Timeline& timeline) : timeline_(timeline) { build(); }

MemoryPyramid::MemoryPyramid(const Timeline& timeline, const std::vector<uint64_t>& state_totals)
    : timeline_(timeline), state_totals_(&state_totals) {
  if (state_totals.size() != timeline.action_count() + 1) {
    throw std::invalid_argument("memory pyramid: one total per state expected");
  }
  build();
}

void MemoryPyramid::build() {
  size_t count = timeline_.action_count();
  if (count == 0) return;
  for (size_t level = kFirstStoredLevel;; ++level) {
    size_t nodes = (count + (size_t{1} << level) - 1) >> level;
    std::vector<uint32_t> maxima(nodes), minima(nodes);
    for (size_t node = 0; node < nodes; ++node) {
      if (level == kFirstStoredLevel) {
        maxima[node] = static_cast<uint32_t>(scan_best(level, node, true));
        minima[node] = static_cast<uint32_t>(scan_best(level, node, false));
        continue;
      }
      const auto& below_max = argmax_.back();
      const auto& below_min = argmin_.back();
      size_t left = 2 * node, right = std::min(2 * node + 1, below_max.size() - 1);
      maxima[node] = static_cast<uint32_t>(better(below_max[left], below_max[right], true));
      minima[node] = static_cast<uint32_t>(better(below_min[left], below_min[right], false));
    }
    argmax_.emplace_back(std::move(maxima));
    argmin_.emplace_back(std::move(minima));
    if (nodes == 1) break;
  }
}

uint64_t MemoryPyramid::shown(size_t action) const {
  return std::max(state_total(action), state_total(action + 1));
}

size_t MemoryPyramid::better(size_t a, size_t b, bool want_max) const {
  uint64_t va = shown(a), vb = shown(b);
  if (va == vb) return std::min(a, b);
  return (want_max ? va > vb : va < vb) ? a : b;
}

// Best action inside node `node` of `level` (block [node << level, (node + 1) << level)).
size_t MemoryPyramid::node_best(size_t level, size_t node, bool want_max) const {
  if (level < kFirstStoredLevel) return scan_best(level, node, want_max);
  const auto& stored = want_max ? argmax_ : argmin_;
  return stored[level - kFirstStoredLevel][node];
}

size_t MemoryPyramid::scan_best(size_t level, size_t node, bool want_max) const {
  size_t first = node << level;
  size_t last = std::min(((node + 1) << level), timeline_.action_count()) - 1;
  size_t best = first;
  for (size_t a = first + 1; a <= last; ++a) best = better(best, a, want_max);
  return best;
}

MemoryExtent MemoryPyramid::over_actions(size_t first, size_t last) const {
  size_t best_max = first, best_min = first;
  auto take = [&](size_t level, size_t node) {
    best_max = better(best_max, node_best(level, node, true), true);
    best_min = better(best_min, node_best(level, node, false), false);
  };
  size_t lo = first, hi = last;
  for (size_t level = 0; lo <= hi; ++level) {
    if (lo & 1) take(level, lo++);
    if (lo <= hi && !(hi & 1)) {
      take(level, hi);
      if (hi == 0) break;
      --hi;
    }
    if (lo > hi) break;
    lo >>= 1;
    hi >>= 1;
  }
  MemoryExtent extent;
  extent.max_bytes = shown(best_max);
  extent.min_bytes = shown(best_min);
  // The state drawn during the peak action: the larger side of the action.
  bool before_is_peak = state_total(best_max) >= state_total(best_max + 1);
  extent.peak_state = before_is_peak ? best_max : best_max + 1;
  return extent;
}

MemoryExtent MemoryPyramid::over_steps(uint64_t first, uint64_t last) const {
  uint64_t final_step = timeline_.timesteps() - 1;
  first = std::min(first, final_step);
  last = std::min(last, final_step);
  return over_actions(timeline_.action_at_step(first), timeline_.action_at_step(last));
}

std::vector<MemoryExtent> MemoryPyramid::columns(double x0, double x1, int width) const {
  std::vector<MemoryExtent> out(static_cast<size_t>(std::max(width, 0)));
  double steps = static_cast<double>(timeline_.timesteps());
  double per_column = (x1 - x0) / width;
  for (size_t c = 0; c < out.size(); ++c) {
    double left = std::max(x0 + static_cast<double>(c) * per_column, 0.0);
    double right = std::min(x0 + static_cast<double>(c + 1) * per_column, steps);
    if (right <= left) continue;  // column outside the timeline: zero extent
    auto first = static_cast<uint64_t>(std::floor(left));
    auto last = static_cast<uint64_t>(std::max(std::ceil(right) - 1.0, std::floor(left)));
    out[c] = over_steps(first, last);
  }
  return out;
}

size_t MemoryPyramid::memory_bytes() const {
  size_t bytes = 0;
  for (const auto& level : argmax_) bytes += 2 * level.size() * sizeof(uint32_t);
  return bytes;
}

}  // namespace snapscope
