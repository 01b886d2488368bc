#include "core/compare/run_alignment.h"

#include <algorithm>
#include <map>
#include <string>

#include "core/analysis/state_mapping.h"

namespace snapscope {
namespace {

// "ProfilerStep#12" and "ProfilerStep#13" are the same range in successive steps: match by the
// name without a trailing "#digits" and the occurrence count.
std::string range_key(const std::string& name) {
  const size_t hash = name.rfind('#');
  if (hash == std::string::npos || hash + 1 == name.size()) return name;
  const bool digits = std::all_of(name.begin() + static_cast<ptrdiff_t>(hash) + 1, name.end(),
                                  [](char c) { return c >= '0' && c <= '9'; });
  return digits ? name.substr(0, hash) : name;
}

// (key, n) -> state of the n-th START and END of each range, for one run.
std::map<std::pair<std::string, size_t>, std::pair<size_t, size_t>> range_states(
    const Timeline& timeline, std::span<const AnnotationRecord> annotations) {
  std::map<std::pair<std::string, size_t>, std::pair<size_t, size_t>> states;
  const ActionClock clock(timeline);
  if (!clock.has_times()) return states;
  std::map<std::string, size_t> seen;
  for (const AnnotationInterval& interval :
       pair_annotations(annotations, timeline.input().device).intervals) {
    if (interval.start_time_us == kNoTime) continue;
    const std::string key = range_key(interval.name);
    const size_t start = clock.state_at_time(interval.start_time_us);
    const size_t end = interval.end_time_us == kNoTime
                           ? timeline.action_count()
                           : std::max(start, clock.state_at_time(interval.end_time_us));
    states[{key, seen[key]++}] = {start, end};
  }
  return states;
}

}  // namespace

std::vector<std::pair<size_t, size_t>> step_ranges(const Timeline& timeline,
                                                   std::span<const AnnotationRecord> annotations) {
  std::map<std::string, std::vector<std::pair<size_t, size_t>>> by_key;
  for (const auto& [key, states] : range_states(timeline, annotations)) by_key[key.first].push_back(states);
  std::vector<std::pair<size_t, size_t>> best;
  for (auto& [key, ranges] : by_key) {
    std::sort(ranges.begin(), ranges.end());
    if (ranges.size() > best.size() || (ranges.size() == best.size() && !best.empty() && ranges[0] < best[0]))
      best = ranges;
  }
  if (best.size() < 2) return {};
  // A step runs from one start of that range to the next (or the end of the trace), so it holds
  // whatever the range leaves out (a forward range's backward pass and optimizer step).
  std::vector<std::pair<size_t, size_t>> steps;
  for (size_t i = 0; i < best.size(); ++i)
    steps.emplace_back(best[i].first, i + 1 < best.size() ? best[i + 1].first : timeline.action_count());
  return steps;
}

namespace {

bool has_times(const Timeline& timeline) {
  const ActionTimes& times = timeline.input().action_time_us;
  return !times.empty() && times.front() != kNoTime && times.back() != kNoTime;
}

}  // namespace

const char* align_mode_name(AlignMode mode) {
  switch (mode) {
    case AlignMode::Events:
      return "events";
    case AlignMode::Time:
      return "time";
    case AlignMode::Steps:
      return "steps";
  }
  return "events";
}

RunAlignment::RunAlignment(const Timeline& a, const Timeline& b, AlignMode mode,
                           std::span<const AnnotationRecord> annotations_a,
                           std::span<const AnnotationRecord> annotations_b)
    : a_(a), b_(b), clock_b_(b), requested_(mode), effective_(mode) {
  if (mode == AlignMode::Time && !(has_times(a) && has_times(b))) effective_ = AlignMode::Events;
  if (mode != AlignMode::Steps) return;
  const auto in_a = range_states(a, annotations_a);
  const auto in_b = range_states(b, annotations_b);
  std::vector<std::pair<size_t, size_t>> pairs;
  for (const auto& [key, a_states] : in_a) {
    const auto match = in_b.find(key);
    if (match == in_b.end()) continue;
    pairs.emplace_back(a_states.first, match->second.first);
    pairs.emplace_back(a_states.second, match->second.second);
  }
  std::sort(pairs.begin(), pairs.end());
  // Keep a chain increasing in both runs (ranges that cross would fold the axis back).
  for (const auto& pair : pairs) {
    if (anchors_.empty() || (pair.first > anchors_.back().first && pair.second >= anchors_.back().second))
      anchors_.push_back(pair);
  }
  if (anchors_.empty()) effective_ = AlignMode::Events;
}

size_t RunAlignment::b_state(size_t a_state) const {
  switch (effective_) {
    case AlignMode::Time:
      return by_time(a_state);
    case AlignMode::Steps:
      return by_anchors(a_state);
    case AlignMode::Events:
      break;
  }
  return by_event(a_state);
}

std::optional<size_t> RunAlignment::a_state_for(size_t wanted) const {
  const auto [first, last] = b_reached();
  if (wanted < first || wanted > last) return std::nullopt;
  size_t low = 0, high = a_.action_count();  // the first A state whose B state reaches `wanted`
  while (low < high) {
    const size_t mid = low + (high - low) / 2;
    if (b_state(mid) < wanted) {
      low = mid + 1;
    } else {
      high = mid;
    }
  }
  return low;
}

std::pair<size_t, size_t> RunAlignment::b_reached() const { return {b_state(0), b_state(a_.action_count())}; }

size_t RunAlignment::by_event(size_t a_state) const {
  if (a_state == 0) return 0;
  return std::min(state_after_event(b_, event_of_state(a_, std::min(a_state, a_.action_count()))),
                  b_.action_count());
}

size_t RunAlignment::by_time(size_t a_state) const {
  if (a_state == 0) return 0;
  const ActionTimes& times_a = a_.input().action_time_us;
  const int64_t since_start = times_a[std::min(a_state, times_a.size()) - 1] - times_a.front();
  const int64_t b_time = b_.input().action_time_us.front() + since_start;
  // The state after the last action of B at or before that time.
  return std::min(clock_b_.state_at_time(b_time + 1), b_.action_count());
}

size_t RunAlignment::by_anchors(size_t a_state) const {
  // Anchors plus the two ends, interpolated by action between neighbours.
  std::pair<size_t, size_t> before{0, 0}, after{a_.action_count(), b_.action_count()};
  for (const auto& anchor : anchors_) {
    if (anchor.first <= a_state) before = anchor;
    if (anchor.first >= a_state) {
      after = anchor;
      break;
    }
  }
  if (after.first <= before.first) return std::min(before.second, b_.action_count());
  const double share = double(a_state - before.first) / double(after.first - before.first);
  const auto b =
      static_cast<size_t>(double(before.second) + share * double(after.second - before.second) + 0.5);
  return std::min(b, b_.action_count());
}

}  // namespace snapscope
