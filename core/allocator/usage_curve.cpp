#include "core/allocator/usage_curve.h"

#include <algorithm>
#include <cmath>

#include "core/analysis/state_mapping.h"

namespace snapscope {

double fragmentation_ratio(uint64_t allocated, uint64_t reserved) {
  if (reserved == 0) return 0;
  return std::clamp(1.0 - static_cast<double>(allocated) / static_cast<double>(reserved), 0.0, 1.0);
}

UsageCurve::UsageCurve(const Timeline& blocks, const Timeline& segments,
                       std::shared_ptr<const MemoryPyramid> segment_pyramid)
    : blocks_(blocks),
      segments_(segments),
      segment_pyramid_(segment_pyramid ? std::move(segment_pyramid)
                                       : std::make_shared<MemoryPyramid>(segments)) {}

uint64_t UsageCurve::allocated_after(int64_t event) const {
  return blocks_.total_at_state(state_after_event(blocks_, event));
}

uint64_t UsageCurve::reserved_after(int64_t event) const {
  return segments_.total_at_state(state_after_event(segments_, event));
}

UsageColumn UsageCurve::column(const Timeline& shown, uint64_t first_step, uint64_t last_step) const {
  // The raw events the column spans: from its first action's event to its last action's event.
  const int64_t first_event = shown.action_event(shown.action_at_step(first_step));
  const int64_t last_event = shown.action_event(shown.action_at_step(last_step));
  UsageColumn out;
  out.valid = true;
  out.allocated = allocated_after(last_event);
  out.reserved = reserved_after(last_event);
  out.reserved_max = std::max(out.reserved, reserved_after(first_event - 1));
  // Segment actions inside the column: the pyramid gives their highest total.
  const size_t first_action = state_after_event(segments_, first_event - 1);
  const size_t end_action = state_after_event(segments_, last_event);
  if (first_action < end_action && end_action <= segments_.action_count()) {
    out.reserved_max =
        std::max(out.reserved_max, segment_pyramid_->over_actions(first_action, end_action - 1).max_bytes);
  }
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
