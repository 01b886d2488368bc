// Timeline against a literal brute-force replay (a vector stack, full polygons, one
// max_at_time entry per step) on random traces, for several checkpoint intervals.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <random>
#include <utility>
#include <vector>

#include "core/timeline/timeline.h"
#include "unit/support/replay_actions.h"

using namespace snapscope;

namespace {

using Vertices = std::vector<std::pair<uint64_t, uint64_t>>;

// The straightforward O(actions x live) replay the Timeline must agree with.
struct BruteForceReplay {
  std::map<uint32_t, Vertices> polygons;
  std::vector<uint64_t> max_at_time;
  std::vector<uint64_t> step_end;
  std::vector<std::vector<LiveAllocation>> live_per_state;
  uint64_t max_size = 0;

  explicit BruteForceReplay(const ReplayInput& input) {
    std::vector<uint32_t> stack;
    uint64_t total = 0, t = 0;
    for (uint32_t elem : input.initial_stack) push(input, stack, elem, total, t);
    record_live(input, stack);
    for (const ReplayAction& action : input.actions) {
      const uint64_t size = input.elements[action.elem].size;
      auto found = std::find(stack.begin(), stack.end(), action.elem);
      if (found == stack.end()) {
        push(input, stack, action.elem, total, t);
        advance(1, total, t);
      } else {
        advance(1, total, t);
        polygons[action.elem].emplace_back(t, polygons[action.elem].back().second);
        const auto index = found - stack.begin();
        stack.erase(found);
        if (static_cast<size_t>(index) < stack.size()) {
          for (auto above = stack.begin() + index; above != stack.end(); ++above) {
            Vertices& vertices = polygons[*above];
            const uint64_t offset = vertices.back().second;
            vertices.emplace_back(t, offset);
            vertices.emplace_back(t + 3, offset - size);
          }
          advance(3, total, t);
        }
        total -= size;
      }
      max_size = std::max(max_size, total);
      step_end.push_back(t);
      record_live(input, stack);
    }
    for (uint32_t elem : stack) polygons[elem].emplace_back(t, polygons[elem].back().second);
  }

  void push(const ReplayInput& input, std::vector<uint32_t>& stack, uint32_t elem, uint64_t& total,
            uint64_t t) {
    stack.push_back(elem);
    polygons[elem].emplace_back(t, total);
    total += input.elements[elem].size;
  }

  void advance(uint64_t steps, uint64_t total, uint64_t& t) {
    for (uint64_t i = 0; i < steps; ++i) max_at_time.push_back(total);
    t += steps;
  }

  void record_live(const ReplayInput& input, const std::vector<uint32_t>& stack) {
    std::vector<LiveAllocation> live;
    uint64_t offset = 0;
    for (uint32_t elem : stack) {
      live.push_back({elem, offset, input.elements[elem].size});
      offset += input.elements[elem].size;
    }
    live_per_state.push_back(std::move(live));
  }
};

// Random trace: some initial elements, then allocs (zero sizes included) and frees of random
// live elements, so frees hit the top, the middle and the bottom of the stack.
ReplayInput random_input(std::mt19937_64& rng, size_t action_count) {
  ReplayInput input;
  auto new_element = [&]() {
    ReplayElement element;
    element.size = (rng() % 8 == 0) ? 0 : rng() % 5000;
    input.elements.push_back(element);
    return static_cast<uint32_t>(input.elements.size() - 1);
  };
  std::vector<uint32_t> live;
  for (int i = 0; i < 20; ++i) {
    live.push_back(new_element());
    input.initial_stack.push_back(live.back());
  }
  new_element();  // never live
  for (size_t i = 0; i < action_count; ++i) {
    const bool do_free = !live.empty() && rng() % 100 < 48;
    if (do_free) {
      const size_t pick = rng() % 4 == 0 ? live.size() - 1 : rng() % live.size();
      testing::push_action(input, live[pick], static_cast<EventIndex>(i));
      live.erase(live.begin() + static_cast<std::ptrdiff_t>(pick));
    } else {
      live.push_back(new_element());
      testing::push_action(input, live.back(), static_cast<EventIndex>(i));
    }
  }
  return input;
}

void check_layout(const Timeline& timeline, const BruteForceReplay& oracle) {
  REQUIRE(timeline.timesteps() == oracle.max_at_time.size());
  for (uint64_t t = 0; t < timeline.timesteps(); ++t)
    REQUIRE(timeline.memory_at_step(t) == oracle.max_at_time[t]);
  for (size_t i = 0; i < timeline.action_count(); ++i) REQUIRE(timeline.step_end(i) == oracle.step_end[i]);
  CHECK(timeline.max_size() == oracle.max_size);
  for (const auto& [elem, vertices] : oracle.polygons) REQUIRE(timeline.polygon(elem) == vertices);
}

void check_live_sets(const Timeline& timeline, const BruteForceReplay& oracle, std::mt19937_64& rng) {
  for (size_t state = 0; state <= timeline.action_count(); ++state) {
    const std::vector<LiveAllocation>& expected = oracle.live_per_state[state];
    const std::vector<LiveAllocation> live = timeline.live_at(state);
    REQUIRE(live.size() == expected.size());
    for (size_t k = 0; k < live.size(); ++k) {
      REQUIRE(live[k].elem == expected[k].elem);
      REQUIRE(live[k].offset == expected[k].offset);
      REQUIRE(timeline.offset_of(live[k].elem, state) == expected[k].offset);
    }
    const uint64_t total = timeline.total_at_state(state);
    const uint64_t probe = rng() % (total + 10);
    const auto hit = timeline.allocation_at(state, probe);
    const auto covering = std::find_if(expected.begin(), expected.end(), [&](const LiveAllocation& a) {
      return a.offset <= probe && probe < a.offset + a.size;
    });
    REQUIRE(hit.has_value() == (covering != expected.end()));
    if (hit) REQUIRE(hit->elem == covering->elem);
  }
}

}  // namespace

TEST_CASE("timeline property: agrees with a brute-force replay on random traces") {
  std::mt19937_64 rng(20240611);
  for (size_t budget : {size_t{1}, size_t{4096}, Timeline::kDefaultCheckpointBudget}) {
    CAPTURE(budget);
    const ReplayInput input = random_input(rng, 3000);
    const BruteForceReplay oracle(input);
    const Timeline timeline(input, budget);
    check_layout(timeline, oracle);
    check_live_sets(timeline, oracle, rng);
  }
}

TEST_CASE("timeline property: the checkpoint interval adapts to the budget") {
  std::mt19937_64 rng(7);
  const ReplayInput input = random_input(rng, 5000);
  const Timeline roomy(input);
  const Timeline tight(input, 2048);
  CHECK(roomy.checkpoint_interval() == 64);
  CHECK(tight.checkpoint_interval() > roomy.checkpoint_interval());
  CHECK(tight.memory_bytes() < roomy.memory_bytes());
}
