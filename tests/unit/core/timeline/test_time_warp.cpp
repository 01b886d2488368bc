// TimeWarp: the map between timesteps and a wall-clock axis that the time-linear chart uses.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>

#include "core/timeline/time_warp.h"
#include "core/timeline/timeline.h"
#include "unit/support/test_lod_traces.h"

using namespace snapscope;

namespace {

// 1 µs between actions, except one idle second in the middle.
constexpr int64_t kStart = 1'700'000'000'000'000;
constexpr int64_t kGapUs = 1'000'000;

ReplayInput trace_with_gap(size_t actions, uint64_t seed) {
  ReplayInput input = test::random_trace({.actions = actions, .seed = seed});
  for (size_t i = 0; i < input.actions.size(); ++i) {
    const auto index = static_cast<int64_t>(i);
    input.action_time_us.push_back(kStart + index + (i >= input.actions.size() / 2 ? kGapUs : 0));
  }
  return input;
}

}  // namespace

TEST_CASE("time warp: each action's first step sits at its time, the round trip is exact") {
  const Timeline timeline(trace_with_gap(2000, 3));
  const auto warp = TimeWarp::build(timeline);
  REQUIRE(warp);
  for (size_t k = 0; k < timeline.action_count(); k += 97) {
    const auto step = static_cast<double>(timeline.step_begin(k));
    const double expected = static_cast<double>(timeline.input().action_time_us[k] - kStart);
    CHECK(warp->time_at(step) == doctest::Approx(expected).epsilon(1e-12));
    CHECK(warp->step_at(warp->axis_at(step)) == doctest::Approx(step).epsilon(1e-9));
    CHECK(warp->step_at(warp->axis_at(step + 0.5)) == doctest::Approx(step + 0.5).epsilon(1e-9));
    CHECK(warp->step_at_time(expected) == doctest::Approx(step).epsilon(1e-9));
  }
}

TEST_CASE("time warp: the axis is linear in time; the sliver per step adds at most 0.01 % of the run") {
  const Timeline timeline(trace_with_gap(4000, 5));
  const auto warp = TimeWarp::build(timeline);
  REQUIRE(warp);
  const double run = warp->time_at(static_cast<double>(timeline.timesteps()));
  CHECK(run == doctest::Approx(static_cast<double>(kGapUs + 3999)));
  CHECK(warp->axis_end() - run <= run * 1.0001e-4);
  // The idle second takes (almost) all of the axis: the 2000 actions before it take 2 ms.
  const double before_gap = warp->axis_at(static_cast<double>(timeline.step_begin(1999)));
  const double after_gap = warp->axis_at(static_cast<double>(timeline.step_begin(2000)));
  CHECK(before_gap >= 1999);
  CHECK(before_gap - 1999 <= run * 1e-4);
  CHECK(after_gap - before_gap >= kGapUs);
  // Strictly increasing, so every axis position names one step.
  double previous = -1;
  for (uint64_t step = 0; step <= timeline.timesteps(); step += 7) {
    const double axis = warp->axis_at(static_cast<double>(step));
    CHECK(axis > previous);
    previous = axis;
  }
}

TEST_CASE("time warp: equal, missing and backward times; clamping; no timestamps") {
  ReplayInput input = test::random_trace({.actions = 50, .seed = 9});
  input.action_time_us.assign(input.actions.size(), kNoTime);
  SUBCASE("no timestamps at all: no warp") {
    CHECK_FALSE(TimeWarp::build(Timeline(input)));
    input.action_time_us.clear();
    CHECK_FALSE(TimeWarp::build(Timeline(input)));
  }
  SUBCASE("untimed actions take the time before them; a clock running backwards is held") {
    input.action_time_us.set(3, kStart + 100);
    input.action_time_us.set(10, kStart + 50);  // backwards
    input.action_time_us.set(20, kStart + 300);
    const Timeline timeline(input);
    const auto warp = TimeWarp::build(timeline);
    REQUIRE(warp);
    const auto at = [&](size_t k) { return warp->time_at(static_cast<double>(timeline.step_begin(k))); };
    CHECK(at(0) == 0);  // before the first timed action: its time
    CHECK(at(3) == doctest::Approx(0));
    CHECK(at(10) == doctest::Approx(0));
    CHECK(at(15) == doctest::Approx(0));
    CHECK(at(20) == doctest::Approx(200));
    CHECK(at(49) == doctest::Approx(200));
    CHECK(warp->step_at_time(200) == doctest::Approx(static_cast<double>(timeline.step_begin(20))));
    CHECK(warp->step_at_time(1e9) == static_cast<double>(timeline.timesteps()));
    CHECK(warp->axis_at(-5) == 0);
    CHECK(warp->step_at(-5) == 0);
    CHECK(warp->step_at(warp->axis_end() * 2) == static_cast<double>(timeline.timesteps()));
  }
  SUBCASE("times at both ends of int64 (a hostile file): finite, no overflow") {
    input.action_time_us.set(0, std::numeric_limits<int64_t>::min() + 1);
    input.action_time_us.set(1, std::numeric_limits<int64_t>::max());
    const Timeline timeline(input);
    const auto warp = TimeWarp::build(timeline);
    REQUIRE(warp);
    CHECK(std::isfinite(warp->axis_end()));
    CHECK(warp->time_at(static_cast<double>(timeline.timesteps())) > 1.8e19);
    CHECK(warp->step_at(warp->axis_end() / 2) >= 0);
  }
  SUBCASE("every action in the same microsecond: the slivers keep it invertible") {
    input.action_time_us.assign(input.actions.size(), kStart);
    const Timeline timeline(input);
    const auto warp = TimeWarp::build(timeline);
    REQUIRE(warp);
    CHECK(warp->axis_end() > 0);
    CHECK(warp->step_at(warp->axis_at(17.25)) == doctest::Approx(17.25));
  }
}
