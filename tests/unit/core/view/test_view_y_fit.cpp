// y fitting: the byte range follows the totals of the time range in view.
#include <doctest/doctest.h>

#include "core/view/y_fit.h"
#include "unit/support/replay_actions.h"

using namespace snapscope;

namespace {

// a(100) b(200) c(300), free a, free b: totals 100, 300, 600, 500, 300 across the steps.
ReplayInput three_allocations() {
  ReplayInput input;
  for (uint64_t size : {100u, 200u, 300u}) input.elements.push_back({.size = size});
  for (uint32_t e : {0u, 1u, 2u, 0u, 1u})
    testing::push_action(input, e, static_cast<EventIndex>(input.actions.size()));
  return input;
}

}  // namespace

TEST_CASE("fit_y: 0 to the highest total in view, or from the lowest; x untouched") {
  const Timeline timeline(three_allocations());
  const MemoryPyramid pyramid(timeline);
  const auto steps = static_cast<double>(timeline.timesteps());
  const DataRect whole = fit_y({0, steps, 7, 9}, timeline, pyramid, false);
  CHECK(whole.x0 == 0);
  CHECK(whole.x1 == steps);
  CHECK(whole.y0 == 0);
  CHECK(whole.y1 == doctest::Approx(600 * 1.05));
  // The first step only shows a (100 bytes).
  const DataRect start = fit_y({0, 0.5, 0, 1e9}, timeline, pyramid, false);
  CHECK(start.y1 == doctest::Approx(100 * 1.05));
  // From the lowest total in view: the part that changes fills the chart.
  const DataRect floored = fit_y({0, steps, 0, 1}, timeline, pyramid, true);
  const MemoryExtent extent = pyramid.over_steps(0, timeline.timesteps() - 1);
  const double span = static_cast<double>(extent.max_bytes - extent.min_bytes);
  CHECK(floored.y0 == doctest::Approx(static_cast<double>(extent.min_bytes) - span * kYFitHeadroom));
  CHECK(floored.y1 == doctest::Approx(600 + span * kYFitHeadroom));
  // Outside the trace nothing is known: the view stays.
  const DataRect outside{steps + 10, steps + 20, 5, 6};
  CHECK(fit_y(outside, timeline, pyramid, false) == outside);
}

TEST_CASE("frame_bytes: a little room around a byte range, never below 0") {
  const DataRect framed = frame_bytes({1, 2, 0, 1}, 1000, 2000);
  CHECK(framed.y0 == doctest::Approx(950));
  CHECK(framed.y1 == doctest::Approx(2050));
  CHECK(frame_bytes({1, 2, 0, 1}, 10, 2000).y0 == 0);
  CHECK(frame_bytes({1, 2, 0, 1}, 0, 0).y1 > 0);  // a minimum span
}
