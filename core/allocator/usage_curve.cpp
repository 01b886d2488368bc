#include "core/allocator/usage_curve.h"

#include <algorithm>
#include <cmath>

#include "core/analysis/state_mapping.h"

namespace snapscope {

double fragmentation_ratio(uint64_t allocated, uint64_t reserved) {
  if (reserved == 0) return 0;
  return std::clamp(1.0 - static_cast<double>(allocated) / static_cast<double>(reserved), 0.0, 1.0);
}

UsageCurve::UsageCurve(const Timeline& blocks, const ReservedSeries& reserved)
    : blocks_(blocks), reserved_(reserved) {}

uint64_t UsageCurve::allocated_after(int64_t event) const {
  return blocks_.total_at_state(state_after_event(blocks_, event));
}

uint64_t UsageCurve::reserved_after(int64_t event) const { return reserved_.after_event(event); }

UsageColumn UsageCurve::column(const Timeline& shown, uint64_t first_step, uint64_t last_step) const {
  // The raw events the column spans: from its first action's event to its last action's event.
  const int64_t first_event = shown.action_event(shown.action_at_step(first_step));
  const int64_t last_event = shown.action_event(shown.action_at_step(last_step));
  UsageColumn out;
  out.valid = true;
  out.allocated = allocated_after(last_event);
  out.reserved = reserved_after(last_event);
  // From just before the column's first event to its last.
  out.reserved_max = reserved_.max_between(std::min(first_event - 1, last_event), last_event);
  out.fragmentation = fragmentation_ratio(out.allocated, out.reserved);
  return out;
}

std::vector<UsageColumn> UsageCurve::columns(const Timeline& shown, double x0, double x1, int width) const {
  std::vector<double> edges(static_cast<size_t>(std::max(width, 0)) + 1);
  for (size_t c = 0; c < edges.size(); ++c)
    edges[c] = x0 + (x1 - x0) * static_cast<double>(c) / std::max(width, 1);
  return columns(shown, edges);
}

std::vector<UsageColumn> UsageCurve::columns(const Timeline& shown, const std::vector<double>& edges) const {
  std::vector<UsageColumn> out(edges.empty() ? 0 : edges.size() - 1);
  const uint64_t steps = shown.timesteps();
  if (steps == 0) return out;
  for (size_t c = 0; c < out.size(); ++c) {
    const double left = edges[c];
    const double right = edges[c + 1];
    if (right <= left || right <= 0 || left >= static_cast<double>(steps)) continue;
    const auto first = static_cast<uint64_t>(std::max(0.0, std::floor(left)));
    const uint64_t last = std::min(steps - 1, static_cast<uint64_t>(std::max(0.0, std::ceil(right) - 1)));
    out[c] = column(shown, first, std::max(first, last));
  }
  return out;
}

}  // namespace snapscope
