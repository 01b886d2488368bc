// Timeline on small hand-built replay inputs, with layouts worked out by hand from
// memory_viz's replay rules.
#include <doctest/doctest.h>

#include <stdexcept>
#include <utility>
#include <vector>

#include "core/timeline/timeline.h"
#include "unit/support/replay_actions.h"

using namespace snapscope;

namespace {

using Vertices = std::vector<std::pair<uint64_t, uint64_t>>;

ReplayInput make_input(const std::vector<uint64_t>& sizes, const std::vector<uint32_t>& initial_stack,
                       const std::vector<uint32_t>& action_elems) {
  ReplayInput input;
  for (uint64_t size : sizes) {
    ReplayElement element;
    element.size = size;
    input.elements.push_back(element);
  }
  input.initial_stack = initial_stack;
  for (size_t i = 0; i < action_elems.size(); ++i) {
    testing::push_action(input, action_elems[i], static_cast<EventIndex>(i));
  }
  return input;
}

std::vector<uint64_t> max_at_time(const Timeline& timeline) {
  std::vector<uint64_t> out;
  for (uint64_t t = 0; t < timeline.timesteps(); ++t) out.push_back(timeline.memory_at_step(t));
  return out;
}

std::vector<uint64_t> step_ends(const Timeline& timeline) {
  std::vector<uint64_t> out;
  for (size_t i = 0; i < timeline.action_count(); ++i) out.push_back(timeline.step_end(i));
  return out;
}

}  // namespace

TEST_CASE("timeline: freeing the top takes 1 step, a middle free 4 and slides the rest down") {
  // A, B, C allocated; free B (middle), C (now top), A.
  const Timeline timeline(make_input({10, 20, 30}, {}, {0, 1, 2, 1, 2, 0}));
  CHECK(step_ends(timeline) == std::vector<uint64_t>{1, 2, 3, 7, 8, 9});
  CHECK(timeline.timesteps() == 9);
  CHECK(max_at_time(timeline) == std::vector<uint64_t>{10, 30, 60, 60, 60, 60, 60, 40, 10});
  CHECK(timeline.max_size() == 60);
  CHECK(timeline.peak_bytes() == 60);
  CHECK(timeline.peak_action() == 2);
  CHECK(timeline.action_is_free(3));
  CHECK_FALSE(timeline.action_is_free(2));
  CHECK(timeline.action_shifts(3));
  CHECK(timeline.action_stack_position(4) == timeline.stack_position(2));
  CHECK_FALSE(timeline.action_shifts(4));
  CHECK(timeline.polygon(0) == Vertices{{0, 0}, {9, 0}});
  CHECK(timeline.polygon(1) == Vertices{{1, 10}, {4, 10}});
  CHECK(timeline.polygon(2) == Vertices{{2, 30}, {4, 30}, {7, 10}, {8, 10}});
  CHECK(timeline.action_at_step(0) == 0);
  CHECK(timeline.action_at_step(3) == 3);
  CHECK(timeline.action_at_step(6) == 3);
  CHECK(timeline.action_at_step(7) == 4);
  CHECK(timeline.alloc_state(2) == 3);
  CHECK(timeline.free_state(2) == 5);
  CHECK(timeline.free_state(0) == 6);
}

TEST_CASE("timeline: a free of an initial element counts it until the free") {
  // X and Y live at t = 0 (X below Y); the trace frees X, which slides Y down.
  const Timeline timeline(make_input({5, 7}, {0, 1}, {0}));
  CHECK(timeline.total_at_state(0) == 12);
  CHECK(max_at_time(timeline) == std::vector<uint64_t>{12, 12, 12, 12});
  CHECK(timeline.max_size() == 7);     // upstream only counts totals after actions
  CHECK(timeline.peak_bytes() == 12);  // but max_at_time shows the initial total
  CHECK(timeline.polygon(0) == Vertices{{0, 0}, {1, 0}});
  CHECK(timeline.polygon(1) == Vertices{{0, 5}, {1, 5}, {4, 0}, {4, 0}});
  CHECK(timeline.free_state(1) == timeline.never_freed());
}

TEST_CASE("timeline: zero-sized elements still occupy a stack slot") {
  const Timeline timeline(make_input({0, 10}, {}, {0, 1, 0}));
  CHECK(step_ends(timeline) == std::vector<uint64_t>{1, 2, 6});
  CHECK(timeline.polygon(1) == Vertices{{1, 0}, {3, 0}, {6, 0}, {6, 0}});
  CHECK(timeline.polygon(0) == Vertices{{0, 0}, {3, 0}});
  const auto hit = timeline.allocation_at(2, 0);
  REQUIRE(hit.has_value());
  CHECK(hit->elem == 1);  // the zero-sized element covers no byte
}

TEST_CASE("timeline: a synthetic alloc at t = 0 is one step wide") {
  ReplayInput input = make_input({4, 6}, {1}, {0});
  input.elements[0].alloc_event = -1;
  input.synthetic_action = true;
  const Timeline timeline(std::move(input));
  CHECK(timeline.timesteps() == 1);
  CHECK(max_at_time(timeline) == std::vector<uint64_t>{10});
  CHECK(timeline.polygon(1) == Vertices{{0, 0}, {1, 0}});
  CHECK(timeline.polygon(0) == Vertices{{0, 6}, {1, 6}});
  CHECK(timeline.stack_position(1) == 0);
  CHECK(timeline.element_at_stack_position(1) == 0);
}

TEST_CASE("timeline: an empty input has no steps") {
  const Timeline timeline(make_input({}, {}, {}));
  CHECK(timeline.timesteps() == 0);
  CHECK(timeline.max_size() == 0);
  CHECK(timeline.peak_bytes() == 0);
  CHECK(timeline.live_at(0).empty());
  CHECK_FALSE(timeline.allocation_at(0, 0).has_value());
}

TEST_CASE("timeline: re-used element slots and never-live elements") {
  // Element 0 is allocated and never freed; element 2 never appears (e.g. a summarized input).
  const Timeline timeline(make_input({3, 4, 5}, {}, {0, 1, 1}));
  CHECK(timeline.ever_live(0));
  CHECK_FALSE(timeline.ever_live(2));
  CHECK_FALSE(timeline.in_initial_stack(2));
  CHECK(timeline.polygon(2).empty());
  CHECK(timeline.stack_size() == 2);
  CHECK(timeline.polygon(0) == Vertices{{0, 0}, {3, 0}});
}

TEST_CASE("timeline: live sets, offsets and hit tests") {
  const Timeline timeline(make_input({10, 20, 30}, {}, {0, 1, 2, 1, 2, 0}));
  const auto live = timeline.live_at(3);
  REQUIRE(live.size() == 3);
  CHECK(live[2].elem == 2);
  CHECK(live[2].offset == 30);
  CHECK(live[2].size == 30);
  const auto after_middle_free = timeline.live_at(4);
  REQUIRE(after_middle_free.size() == 2);
  CHECK(after_middle_free[1].offset == 10);
  CHECK(timeline.offset_of(2, 4) == 10);
  CHECK(timeline.allocation_at(4, 9)->elem == 0);
  CHECK(timeline.allocation_at(4, 10)->elem == 2);
  CHECK(timeline.allocation_at(4, 39)->elem == 2);
  CHECK_FALSE(timeline.allocation_at(4, 40).has_value());
  CHECK(timeline.live_at(6).empty());

  std::vector<LiveAllocation> reused(5, LiveAllocation{9, 9, 9});  // cleared, then filled
  for (const size_t state : {3, 4, 6, 0}) {
    timeline.live_at(state, reused);
    const auto fresh = timeline.live_at(state);
    REQUIRE(reused.size() == fresh.size());
    for (size_t i = 0; i < fresh.size(); ++i) {
      CHECK(reused[i].elem == fresh[i].elem);
      CHECK(reused[i].offset == fresh[i].offset);
      CHECK(reused[i].size == fresh[i].size);
    }
  }
}

TEST_CASE("timeline: elements of 4 GiB and more keep their whole size and alloc state") {
  constexpr uint64_t kHuge = (uint64_t{5} << 30) + 3;  // past what 4 bytes hold
  constexpr uint64_t kEdge = 0xffffffff;               // the first size kept whole
  // Elements 0 (initial) and 1..3 allocated by actions 0, 2 and 3; 1 freed by action 1.
  const Timeline timeline(make_input({kHuge, 512, kEdge, kHuge + 1}, {0}, {1, 1, 2, 3, 0}));
  CHECK(timeline.alloc_state(0) == 0);
  CHECK(timeline.in_initial_stack(0));
  CHECK(timeline.alloc_state(1) == 1);
  CHECK_FALSE(timeline.in_initial_stack(1));
  CHECK(timeline.alloc_state(2) == 3);
  CHECK(timeline.alloc_state(3) == 4);
  CHECK(timeline.free_state(0) == 5);
  CHECK(timeline.positions_allocated_by(0) == 1);
  CHECK(timeline.positions_allocated_by(2) == 2);
  CHECK(timeline.positions_allocated_by(5) == 4);
  const auto live = timeline.live_at(4);
  REQUIRE(live.size() == 3);
  CHECK(live[0].size == kHuge);
  CHECK(live[1].offset == kHuge);
  CHECK(live[1].size == kEdge);
  CHECK(live[2].offset == kHuge + kEdge);
  CHECK(live[2].size == kHuge + 1);
  CHECK(timeline.total_at_state(4) == 2 * kHuge + 1 + kEdge);
  CHECK(timeline.allocation_at(4, kHuge + kEdge)->elem == 3);
  CHECK(timeline.size_at_stack_position(3) == kHuge + 1);
}

TEST_CASE("timeline: inconsistent inputs are rejected") {
  CHECK_THROWS_AS(Timeline(make_input({1}, {}, {3})), std::invalid_argument);
  CHECK_THROWS_AS(Timeline(make_input({1}, {0, 0}, {})), std::invalid_argument);
  CHECK_THROWS_AS(Timeline(make_input({1}, {}, {0, 0, 0})), std::invalid_argument);
  CHECK_THROWS_AS(Timeline(make_input({1}, {5}, {})), std::invalid_argument);
}
