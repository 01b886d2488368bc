#include "core/timeline/time_warp.h"

#include <algorithm>

#include "core/timeline/timeline.h"

namespace snapscope {
namespace {

constexpr double kSliverOfMeanStep = 1e-4;

// Per action, microseconds since the first timed action, never decreasing.
std::vector<double> monotone_times(const ActionTimes& raw, int64_t first) {
  std::vector<double> times(raw.size());
  int64_t latest = first;
  for (size_t i = 0; i < raw.size(); ++i) {
    if (raw[i] != kNoTime) latest = std::max(latest, raw[i]);
    times[i] = static_cast<double>(latest) - static_cast<double>(first);  // no int64 overflow
  }
  return times;
}

// The piecewise-linear map through knots (from[k], to[k]), `from` strictly increasing; clamps.
template <typename From, typename To>
double through_knots(const std::vector<From>& from, const std::vector<To>& to, double value) {
  const double clamped =
      std::clamp(value, static_cast<double>(from.front()), static_cast<double>(from.back()));
  const auto k = static_cast<size_t>(std::upper_bound(from.begin(), from.end(), clamped) - from.begin()) - 1;
  if (k + 1 >= from.size()) return static_cast<double>(to.back());
  const double fraction = (clamped - from[k]) / (static_cast<double>(from[k + 1]) - from[k]);
  return to[k] + fraction * (static_cast<double>(to[k + 1]) - to[k]);
}

}  // namespace

std::shared_ptr<const TimeWarp> TimeWarp::build(const Timeline& timeline) {
  const ActionTimes& raw = timeline.input().action_time_us;
  if (timeline.action_count() == 0 || raw.size() != timeline.action_count()) return nullptr;
  const auto first = std::find_if(raw.begin(), raw.end(), [](int64_t time) { return time != kNoTime; });
  if (first == raw.end()) return nullptr;
  const std::vector<double> times = monotone_times(raw, *first);
  const auto steps = static_cast<double>(timeline.timesteps());
  std::shared_ptr<TimeWarp> warp(new TimeWarp);
  warp->sliver_ = std::max(times.back(), 1.0) * kSliverOfMeanStep / steps;
  const size_t actions = timeline.action_count();
  warp->knot_step_.resize(actions + 1);
  warp->knot_axis_.resize(actions + 1);
  for (size_t k = 0; k < actions; ++k) {
    warp->knot_step_[k] = static_cast<uint32_t>(timeline.step_begin(k));
    warp->knot_axis_[k] = times[k] + warp->sliver_ * warp->knot_step_[k];
  }
  warp->knot_step_[actions] = static_cast<uint32_t>(timeline.timesteps());
  warp->knot_axis_[actions] = times.back() + warp->sliver_ * steps;
  return warp;
}

double TimeWarp::clamp_step(double step) const {
  return std::clamp(step, 0.0, static_cast<double>(knot_step_.back()));
}

double TimeWarp::axis_at(double step) const { return through_knots(knot_step_, knot_axis_, step); }

double TimeWarp::step_at(double axis) const { return through_knots(knot_axis_, knot_step_, axis); }

double TimeWarp::step_at_time(double time_us) const {
  const auto knot_time = [&](size_t k) { return knot_axis_[k] - sliver_ * knot_step_[k]; };
  const size_t count = knot_axis_.size();
  // The first knot at or after the time (knot times never decrease).
  size_t lo = 0, hi = count;
  while (lo < hi) {
    const size_t mid = lo + (hi - lo) / 2;
    if (knot_time(mid) < time_us) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  if (lo == 0) return 0;
  if (lo == count) return knot_step_.back();
  const double before = knot_time(lo - 1), after = knot_time(lo);
  const double fraction = (time_us - before) / (after - before);
  return knot_step_[lo - 1] + fraction * (knot_step_[lo] - knot_step_[lo - 1]);
}

size_t TimeWarp::memory_bytes() const {
  return knot_step_.capacity() * sizeof(uint32_t) + knot_axis_.capacity() * sizeof(double);
}

}  // namespace snapscope
