#include "core/timeline/reserved_series.h"

#include <algorithm>
#include <utility>

namespace snapscope {

ReservedSeries::ReservedSeries(uint64_t initial, std::vector<ReservedStep> steps)
    : ReservedSeries(initial, Column<ReservedStep>(std::move(steps))) {}

ReservedSeries::ReservedSeries(uint64_t initial, Column<ReservedStep> steps)
    : initial_(initial), peak_(initial), steps_(std::move(steps)) {
  for (const ReservedStep& step : std::as_const(steps_)) peak_ = std::max(peak_, step.reserved);
  build_max_tree();
}

void ReservedSeries::build_max_tree() {
  const size_t n = steps_.size();
  max_tree_.assign(2 * n, 0);
  const Column<ReservedStep>& steps = steps_;  // read through const: a mapped view stays one
  for (size_t i = 0; i < n; ++i) max_tree_[n + i] = steps[i].reserved;
  for (size_t i = n; i-- > 1;) max_tree_[i] = std::max(max_tree_[2 * i], max_tree_[2 * i + 1]);
}

size_t ReservedSeries::first_step_after(int64_t event) const {
  return static_cast<size_t>(
      std::upper_bound(steps_.begin(), steps_.end(), event,
                       [](int64_t e, const ReservedStep& step) { return e < step.event; }) -
      steps_.begin());
}

uint64_t ReservedSeries::after_event(int64_t event) const {
  const size_t after = first_step_after(event);
  return after == 0 ? initial_ : steps_[after - 1].reserved;
}

uint64_t ReservedSeries::max_between(int64_t first_event, int64_t last_event) const {
  uint64_t best = after_event(first_event);
  // Steps inside (first_event, last_event]: [lo, hi) in the tree's leaves.
  size_t lo = first_step_after(first_event) + steps_.size();
  size_t hi = first_step_after(last_event) + steps_.size();
  for (; lo < hi; lo /= 2, hi /= 2) {
    if (lo & 1) best = std::max(best, max_tree_[lo++]);
    if (hi & 1) best = std::max(best, max_tree_[--hi]);
  }
  return best;
}

int64_t reserved_delta(Action action, uint64_t size) {
  const auto bytes = static_cast<int64_t>(size);
  switch (action) {
    case Action::SegmentAlloc:
    case Action::SegmentMap:
      return bytes;
    case Action::SegmentFree:
    case Action::SegmentUnmap:
      return -bytes;
    default:
      return 0;
  }
}

ReservedSeries reserved_series_from_changes(uint64_t final_reserved,
                                            const std::vector<std::pair<int64_t, int64_t>>& changes) {
  // Backwards from the end: reserved before a change = after it - its delta.
  std::vector<ReservedStep> steps(changes.size());
  bool inconsistent = false;
  int64_t after = static_cast<int64_t>(final_reserved);
  for (size_t i = changes.size(); i-- > 0;) {
    steps[i] = {changes[i].first, static_cast<uint64_t>(std::max<int64_t>(after, 0))};
    after -= changes[i].second;
    if (after < 0) inconsistent = true;
  }
  ReservedSeries series(static_cast<uint64_t>(std::max<int64_t>(after, 0)), std::move(steps));
  if (inconsistent) series.mark_inconsistent();
  return series;
}

ReservedSeries reserved_series_of(const Snapshot& snapshot, int device) {
  uint64_t final_reserved = 0;
  for (const Segment& segment : snapshot.segments) {
    if (segment.device == device) final_reserved += segment.total_size;
  }
  std::vector<std::pair<int64_t, int64_t>> changes;
  const auto index = static_cast<size_t>(device);
  if (device >= 0 && index < snapshot.device_traces.size()) {
    const std::vector<TraceEvent>& events = snapshot.device_traces[index].events;
    for (size_t i = 0; i < events.size(); ++i) {
      const int64_t delta = reserved_delta(events[i].action(), events[i].size);
      if (delta != 0) changes.emplace_back(static_cast<int64_t>(i), delta);
    }
  }
  return reserved_series_from_changes(final_reserved, changes);
}

}  // namespace snapscope
