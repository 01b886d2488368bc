#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <utility>
#include <vector>

#include "core/timeline/action_steps.h"

using namespace snapscope;

namespace {

// What ActionSteps replaces: a stored step end per action.
struct PlainSteps {
  std::vector<uint64_t> step_end;
  void push_back(bool shifts) {
    step_end.push_back((step_end.empty() ? 0 : step_end.back()) + (shifts ? 4 : 1));
  }
  size_t action_at_step(uint64_t step) const {
    return static_cast<size_t>(std::upper_bound(step_end.begin(), step_end.end(), step) - step_end.begin());
  }
};

void check_against_plain(const std::vector<bool>& frees, const std::vector<bool>& shifts) {
  ActionSteps steps;
  PlainSteps plain;
  for (size_t i = 0; i < frees.size(); ++i) {
    steps.push_back(frees[i], shifts[i]);
    plain.push_back(shifts[i]);
  }
  REQUIRE(steps.size() == frees.size());
  for (size_t i = 0; i < frees.size(); ++i) {
    CHECK(steps.frees(i) == frees[i]);
    CHECK(steps.shifts(i) == shifts[i]);
    CHECK(steps.step_end(i) == plain.step_end[i]);
    CHECK(steps.step_begin(i) == (i == 0 ? 0 : plain.step_end[i - 1]));
  }
  const uint64_t timesteps = plain.step_end.empty() ? 0 : plain.step_end.back();
  CHECK(steps.timesteps() == timesteps);
  for (uint64_t step = 0; step <= timesteps + 2; ++step)
    CHECK(steps.action_at_step(step) == plain.action_at_step(step));
  size_t allocs = 0;
  for (size_t i = 0; i <= frees.size(); ++i) {
    CHECK(steps.allocs_before(i) == allocs);
    if (i == frees.size() || frees[i]) continue;
    CHECK(steps.alloc_action(allocs) == i);
    ++allocs;
  }
}

}  // namespace

TEST_CASE("action steps: no actions") {
  const ActionSteps steps;
  CHECK(steps.size() == 0);
  CHECK(steps.timesteps() == 0);
  CHECK(steps.action_at_step(0) == 0);
  CHECK(steps.allocs_before(0) == 0);
}

TEST_CASE("action steps: a free sliding elements down takes 4 steps, every other action 1") {
  ActionSteps steps;
  steps.push_back(false, false);  // alloc: step 0
  steps.push_back(false, false);  // alloc: step 1
  steps.push_back(true, true);    // free below the top: steps 2..5
  steps.push_back(true, false);   // free of the top: step 6
  CHECK(steps.step_end(2) == 6);
  CHECK(steps.step_begin(3) == 6);
  CHECK(steps.timesteps() == 7);
  CHECK(steps.action_at_step(5) == 2);
  CHECK(steps.action_at_step(6) == 3);
  CHECK(steps.action_at_step(7) == 4);
}

TEST_CASE("action steps: step ends and allocation numbers agree with plain arrays across word boundaries") {
  std::mt19937 random(7);
  for (const size_t count : {1, 63, 64, 65, 127, 128, 129, 1000, 5000}) {
    // Long runs of frees make the allocation sample's word lag behind the allocation's.
    const std::pair<double, double> shares[] = {{0.0, 0.5}, {0.3, 0.5},  {1.0, 0.5},
                                                {0.0, 0.0}, {0.0, 0.02}, {0.3, 0.98}};
    for (const auto& [shift_share, free_share] : shares) {
      std::bernoulli_distribution shift(shift_share), free(free_share);
      std::vector<bool> frees, shifts;
      for (size_t i = 0; i < count; ++i) {
        shifts.push_back(shift(random));
        frees.push_back(shifts.back() || free(random));  // only frees shift
      }
      CAPTURE(count);
      const double shift_share_copy = shift_share;  // CAPTURE cannot name a structured binding (clang 14)
      const double free_share_copy = free_share;
      CAPTURE(shift_share_copy);
      CAPTURE(free_share_copy);
      check_against_plain(frees, shifts);
    }
  }
}
