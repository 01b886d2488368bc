// Moment table, source locations and state mapping on a hand-built replay.
#include <doctest/doctest.h>

#include "core/analysis/live_elements.h"
#include "core/analysis/moment_table.h"
#include "core/analysis/state_mapping.h"
#include "core/analysis/text_table.h"
#include "unit/support/replay_actions.h"
#include "unit/support/test_analysis_fixtures.h"

using namespace snapscope;
using namespace snapscope::testing;

TEST_CASE("analysis: source location is the first frame memory_viz keeps") {
  const FakeStackSource source = model_stacks();
  LocationIndex locations(source, LocationRule::FirstShownFrame);
  CHECK(locations.label(locations.location_of(1)) == "model.py:10 (alloc_weights)");
  CHECK(locations.label(locations.location_of(2)) == "layers.py:30 (alloc_act)");
  // All frames are noise: fall back to the innermost one instead of losing the stack.
  CHECK(locations.label(locations.location_of(3)) == "unwind.cpp:1 (unwind::unwind)");
  CHECK(locations.location_of(0) == kUntracedLocation);
  CHECK(locations.label(kUntracedLocation) == "untraced / pre-existing");
  CHECK(locations.location_of(1) == locations.location_of(1));
  CHECK(locations.size() == 4);
}

TEST_CASE("analysis: the location rule skips torch's own Python frames and C++ internals") {
  FakeStackSource source = model_stacks();
  source.frames.push_back({"forward", "/venv/lib/site-packages/torch/nn/modules/linear.py", 125});  // 6
  source.frames.push_back({"c10::Allocator::malloc", "CUDACachingAllocator.cpp", 0});               // 7
  source.stacks.push_back({0, 6, 2, 4, 3});  // 4: torch's linear called from model.py
  source.frames.push_back({"at::native::bmm(at::Tensor const&, at::Tensor const&)", "??", 0});  // 8
  source.stacks.push_back({0, 7, 8, 4});  // 5: C++ only: the operator, not the allocator
  source.stacks.push_back({0, 7, 4});     // 6: allocator and interpreter only: the innermost
  LocationIndex shown(source, LocationRule::FirstShownFrame);
  LocationIndex user(source, LocationRule::FirstUserFrame);
  CHECK(shown.label(shown.location_of(4)) ==
        "/venv/lib/site-packages/torch/nn/modules/linear.py:125 (forward)");
  CHECK(user.label(user.location_of(4)) == "model.py:20 (forward)");
  CHECK(user.label(user.location_of(5)) == "at::native::bmm");
  CHECK(user.label(user.location_of(6)) == "unwind.cpp:1 (unwind::unwind)");
  CHECK(user.label(user.location_of(1)) == "model.py:10 (alloc_weights)");
  CHECK(user.location_of(0) == kUntracedLocation);
}

TEST_CASE("analysis: state mapping between events, states and the peak") {
  const Timeline timeline(model_replay());
  CHECK(state_after_event(timeline, -1) == 0);
  CHECK(state_after_event(timeline, 0) == 1);
  CHECK(state_after_event(timeline, 1) == 1);  // event 1 is not an action
  CHECK(state_after_event(timeline, 8) == 5);
  CHECK(state_after_event(timeline, 1000) == 7);
  CHECK(event_of_state(timeline, 0) == -1);
  CHECK(event_of_state(timeline, 5) == 8);
  // Totals: 70, 170, 470, 520, 530, 1530, 530, 460: the peak is right after allocating element 5.
  CHECK(peak_state(timeline) == 5);
  CHECK(timeline.total_at_state(peak_state(timeline)) == timeline.peak_bytes());
}

TEST_CASE("analysis: the timesteps events are drawn in (--view eE0:eE1)") {
  const Timeline timeline(model_replay());  // actions at events 0, 2, ..., 12
  CHECK(event_steps(timeline, 2, 4) ==
        std::pair<uint64_t, uint64_t>{timeline.step_begin(1), timeline.step_end(2)});
  CHECK(event_steps(timeline, 0, 12) == std::pair<uint64_t, uint64_t>{0, timeline.timesteps()});
  // No action at event 3: the next one (event 4) is shown.
  CHECK(event_steps(timeline, 3, 3) ==
        std::pair<uint64_t, uint64_t>{timeline.step_begin(2), timeline.step_end(2)});
  // Past the end: the last action.
  CHECK(event_steps(timeline, 500, 600) ==
        std::pair<uint64_t, uint64_t>{timeline.step_begin(6), timeline.timesteps()});
  CHECK(event_steps(Timeline(ReplayInput{}), 0, 5) == std::pair<uint64_t, uint64_t>{0, 0});
}

TEST_CASE("analysis: the peak state of a trace whose peak action is a free") {
  ReplayInput input;
  input.elements = {element(10, 0), element(20, 0)};
  input.initial_stack = {0};
  push_action(input, 0, 0);  // free 0, then alloc 1 (smaller than the start)
  push_action(input, 1, 1);
  const Timeline timeline(std::move(input));
  REQUIRE(timeline.peak_bytes() == 20);
  CHECK(timeline.total_at_state(peak_state(timeline)) == 20);
}

TEST_CASE("analysis: moment table groups live bytes by location and sums exactly") {
  const FakeStackSource source = model_stacks();
  const Timeline timeline(model_replay());
  LocationIndex locations(source, LocationRule::FirstShownFrame);
  for (size_t state = 0; state <= timeline.action_count(); ++state) {
    const std::vector<LiveElement> live = live_elements(timeline, state);
    const MomentTable table = build_moment_table(live, locations, state);
    uint64_t sum = 0;
    for (const MomentRow& row : table.rows) sum += row.bytes;
    CHECK(sum == timeline.total_at_state(state));
    CHECK(table.live_bytes == timeline.total_at_state(state));
    if (!table.rows.empty()) CHECK(table.rows.back().cumulative == sum);
  }

  const std::vector<LiveElement> at_peak = live_elements(timeline, 5);
  const MomentTable table = build_moment_table(at_peak, locations, 5);
  REQUIRE(table.rows.size() == 3);
  CHECK(table.rows[0].label == "model.py:10 (alloc_weights)");
  CHECK(table.rows[0].bytes == 1150);
  CHECK(table.rows[0].count == 3);
  CHECK(table.rows[0].median_size == 100);
  CHECK(table.rows[1].label == "layers.py:30 (alloc_act)");
  CHECK(table.rows[1].bytes == 300);
  CHECK(table.rows[1].cumulative == 1450);
  // The free-without-alloc element's stack is where it was freed: it counts as pre-existing.
  CHECK(table.rows[2].label == "untraced / pre-existing");
  CHECK(table.rows[2].bytes == 80);
  CHECK(table.rows[2].count == 2);
  CHECK(table.rows[2].median_size == 40);  // even count: mean of 10 and 70
  CHECK(table.rows[2].cumulative == 1530);
}

TEST_CASE("analysis: moment table ties are ordered by label") {
  FakeStackSource source = model_stacks();
  LocationIndex locations(source, LocationRule::FirstShownFrame);
  const std::vector<LiveElement> live = {{0, 64, 2}, {1, 64, 1}};
  const MomentTable table = build_moment_table(live, locations, 0);
  REQUIRE(table.rows.size() == 2);
  CHECK(table.rows[0].label == "layers.py:30 (alloc_act)");
  CHECK(table.rows[1].label == "model.py:10 (alloc_weights)");
}

TEST_CASE("analysis: moment table text and CSV") {
  FakeStackSource source = model_stacks();
  source.frames[1].filename = "dir, \"quoted\"/model.py";
  LocationIndex locations(source, LocationRule::FirstShownFrame);
  const std::vector<LiveElement> live = {{0, 3u << 20, 1}, {1, 1u << 20, 1}, {2, 512, 2}, {3, 100, 0}};
  const MomentTable table = build_moment_table(live, locations, 0);

  const std::string csv = moment_table_csv(table);
  CHECK(csv ==
        "bytes,cumulative_bytes,median_size,count,location\n"
        "4194304,4194304,2097152,2,\"dir, \"\"quoted\"\"/model.py:10 (alloc_weights)\"\n"
        "512,4194816,512,1,layers.py:30 (alloc_act)\n"
        "100,4194916,100,1,untraced / pre-existing\n");

  const std::string text = moment_table_text(table, 1);
  CHECK(text.find("  Mem  Cumulative  Median  Count  Location\n") == 0);
  CHECK(text.find("4 MiB       4 MiB   2 MiB      2  dir,") != std::string::npos);
  // The folded remainder keeps the Mem column adding up to the live total.
  CHECK(text.find("612 B       4 MiB       -      2  (2 more locations)\n") != std::string::npos);
}

TEST_CASE("analysis: csv fields are quoted only when needed") {
  CHECK(csv_field("plain") == "plain");
  CHECK(csv_field("a,b") == "\"a,b\"");
  CHECK(csv_field("say \"hi\"") == "\"say \"\"hi\"\"\"");
  CHECK(csv_field("two\nlines") == "two\\nlines");  // control characters escaped, one line
}
