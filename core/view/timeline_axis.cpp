#include "core/view/timeline_axis.h"

#include <algorithm>
#include <cmath>

#include "core/util/format.h"

namespace snapscope {
namespace {

std::optional<size_t> action_at(const Timeline& timeline, double step) {
  if (timeline.action_count() == 0 || timeline.timesteps() == 0 || step < 0) return std::nullopt;
  const auto clamped = std::min(static_cast<uint64_t>(step), timeline.timesteps() - 1);
  return timeline.action_at_step(clamped);
}

}  // namespace

int64_t event_at_step(const Timeline& timeline, double step) {
  const auto action = action_at(timeline, step);
  return action ? timeline.action_event(*action) : -1;
}

int64_t time_at_step(const Timeline& timeline, double step) {
  const auto action = action_at(timeline, step);
  const auto& times = timeline.input().action_time_us;
  return action && *action < times.size() ? times[*action] : kNoTime;
}

std::optional<int64_t> first_time_us(const Timeline& timeline) {
  for (int64_t time : timeline.input().action_time_us) {
    if (time != kNoTime) return time;
  }
  return std::nullopt;
}

std::vector<Tick> time_axis_ticks(const TimeWarp& warp, double lo, double hi, int max_ticks) {
  const double t0 = warp.time_at(lo), t1 = warp.time_at(hi);
  std::vector<Tick> ticks;
  if (!(t1 > t0)) return ticks;
  for (double time : tick_values(t0, t1, nice_decimal_step(t0, t1, max_ticks))) {
    ticks.push_back({warp.step_at_time(time), format_duration_us(time)});
  }
  return ticks;
}

std::vector<Tick> step_axis_ticks(const Timeline& timeline, double lo, double hi, int max_ticks,
                                  bool wall_clock, const TimeWarp* warp) {
  if (wall_clock && warp != nullptr) return time_axis_ticks(*warp, lo, hi, max_ticks);
  std::vector<Tick> ticks = index_ticks(lo, hi, max_ticks);
  const auto origin = first_time_us(timeline);
  for (Tick& tick : ticks) {
    if (wall_clock && origin) {
      const int64_t time = time_at_step(timeline, tick.value);
      tick.label = time == kNoTime ? "" : format_duration_us(static_cast<double>(time - *origin));
    } else {
      const int64_t event = event_at_step(timeline, tick.value);
      tick.label = event < 0 ? "" : "#" + format_grouped(static_cast<uint64_t>(event));
    }
  }
  return ticks;
}

}  // namespace snapscope
