// The LOD building blocks against a naive replay: the memory pyramid's column extents and the
// stack cursor's offsets after jumping between arbitrary states.
#include <doctest/doctest.h>

#include <random>

#include "core/lod/stack_cursor.h"
#include "core/lod/state_delta_index.h"
#include "core/timeline/memory_pyramid.h"
#include "unit/support/test_lod_traces.h"

using namespace snapscope;

TEST_CASE("memory pyramid: range max/min and peak state match a brute-force scan") {
  ReplayInput input = test::random_trace({.actions = 3000, .seed = 7});
  Timeline timeline(input);
  MemoryPyramid pyramid(timeline);
  std::mt19937 rng(3);
  for (int trial = 0; trial < 400; ++trial) {
    size_t a = rng() % timeline.action_count(), b = rng() % timeline.action_count();
    if (trial % 4 == 0) b = a;  // single actions too
    size_t first = std::min(a, b), last = std::max(a, b);
    uint64_t max_seen = 0, min_seen = UINT64_MAX;
    for (size_t i = first; i <= last; ++i) {
      uint64_t shown = std::max(timeline.total_before(i), timeline.total_after(i));
      max_seen = std::max(max_seen, shown);
      min_seen = std::min(min_seen, shown);
    }
    MemoryExtent extent = pyramid.over_actions(first, last);
    CHECK(extent.max_bytes == max_seen);
    CHECK(extent.min_bytes == min_seen);
    CHECK(timeline.total_at_state(extent.peak_state) == max_seen);
    CHECK(extent.peak_state >= first);
    CHECK(extent.peak_state <= last + 1);
  }
}

TEST_CASE("memory pyramid: per-column extents cover the steps of each column") {
  ReplayInput input = test::random_trace({.actions = 1000, .seed = 8});
  Timeline timeline(input);
  MemoryPyramid pyramid(timeline);
  double steps = static_cast<double>(timeline.timesteps());
  auto columns = pyramid.columns(-10.0, steps + 10.0, 97);
  double per_column = (steps + 20.0) / 97;
  for (int c = 0; c < 97; ++c) {
    double left = std::max(-10.0 + c * per_column, 0.0),
           right = std::min(-10.0 + (c + 1) * per_column, steps);
    uint64_t expected = 0;
    for (auto t = static_cast<uint64_t>(left); static_cast<double>(t) < right; ++t) {
      expected = std::max(expected, timeline.memory_at_step(t));
    }
    CHECK(columns[static_cast<size_t>(c)].max_bytes == expected);
  }
}

TEST_CASE("stack cursor: offsets after random jumps match the reference stacks") {
  ReplayInput input = test::random_trace({.actions = 1500, .seed = 11});
  auto stacks = test::reference_stacks(input);
  Timeline timeline(input);
  StateDeltaIndex deltas(timeline);
  StackCursor cursor(timeline, deltas);
  std::mt19937 rng(5);
  for (int jump = 0; jump < 200; ++jump) {
    size_t state = rng() % stacks.size();
    cursor.move_to(state);
    for (const auto& live : stacks[state]) {
      uint32_t position = timeline.stack_position(live.elem);
      CHECK(cursor.offset_of(position) == live.offset);
      const StackCover first_byte = cursor.covering(live.offset);
      CHECK(first_byte.position == position);
      CHECK(first_byte.bytes_below == live.offset);
      const uint64_t size = timeline.element(live.elem).size;  // its last byte, maybe in the next block
      if (size == 0) continue;
      const StackCover last_byte = cursor.covering(live.offset + size - 1);
      CHECK(last_byte.position == position);
      CHECK(last_byte.bytes_below == live.offset);
    }
    const uint64_t total = test::total_of(stacks[state]);
    CHECK(cursor.covering(total).position >= timeline.element_count() - 1);
    CHECK(cursor.covering(total).bytes_below == total);
  }
}
