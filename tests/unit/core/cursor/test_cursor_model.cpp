// The time cursor: stepping, clamping, peak, state <-> x and event mapping, and its readout.
#include <doctest/doctest.h>

#include "core/analysis/state_mapping.h"
#include "core/cursor/cursor_readout.h"
#include "core/cursor/time_cursor.h"
#include "core/timeline/reserved_series.h"
#include "unit/support/replay_actions.h"
#include "unit/support/test_analysis_fixtures.h"

using namespace snapscope;
using namespace snapscope::testing;

namespace {

// Totals by state: 70 170 470 520 530 1530 530 460 (model_replay in test_analysis_fixtures.h).
Timeline model_timeline() { return Timeline(model_replay()); }

// n allocations of 1 byte each, events 0..n-1.
Timeline allocation_run(size_t n) {
  ReplayInput input;
  for (size_t i = 0; i < n; ++i) {
    input.elements.push_back(element(1, 0));
    push_action(input, static_cast<uint32_t>(i), static_cast<EventIndex>(i));
  }
  return Timeline(std::move(input));
}

}  // namespace

TEST_CASE("cursor steps one state at a time and clamps at both ends") {
  const Timeline timeline = model_timeline();
  TimeCursor cursor;
  CHECK_FALSE(cursor.placed());
  cursor.step(timeline, 1);  // an unplaced cursor starts at state 0
  CHECK(cursor.state() == 1);
  cursor.step(timeline, -5);
  CHECK(cursor.state() == 0);
  cursor.step(timeline, 100);
  CHECK(cursor.state() == timeline.action_count());
  cursor.place(timeline, 999);
  CHECK(cursor.state() == timeline.action_count());
  cursor.home(timeline);
  CHECK(cursor.state() == 0);
  cursor.end(timeline);
  CHECK(cursor.state() == 7);
  cursor.clear();
  CHECK_FALSE(cursor.placed());
}

TEST_CASE("large steps are 1% of the trace and at least one action") {
  CHECK(large_step(model_timeline()) == 1);
  const Timeline run = allocation_run(1000);
  CHECK(large_step(run) == 10);
  TimeCursor cursor;
  cursor.place(run, 995);
  cursor.step(run, static_cast<int64_t>(large_step(run)));
  CHECK(cursor.state() == 1000);
}

TEST_CASE("peak jumps to the state holding memory_viz's peak") {
  const Timeline timeline = model_timeline();
  TimeCursor cursor;
  cursor.peak(timeline);
  CHECK(cursor.state() == 5);
  CHECK(timeline.total_at_state(cursor.state()) == timeline.peak_bytes());
  CHECK(timeline.peak_bytes() == 1530);
}

TEST_CASE("each state is drawn at one x and clicking near it finds it again") {
  const Timeline timeline = model_timeline();
  double previous = -1;
  for (size_t state = 0; state <= timeline.action_count(); ++state) {
    const double x = state_x(timeline, state);
    CHECK(x > previous);
    previous = x;
    CHECK(nearest_state(timeline, x) == state);
    CHECK(nearest_state(timeline, x + 0.4) == state);
  }
  CHECK(state_x(timeline, timeline.action_count()) == static_cast<double>(timeline.timesteps()));
  CHECK(nearest_state(timeline, -10) == 0);
  CHECK(nearest_state(timeline, 1e9) == timeline.action_count());
  // Action 5 frees element 5 with element... nothing above? Free of element 3 (bottom) shifts.
  const size_t shifting = 6;  // frees element 3, which has live elements above it
  REQUIRE(timeline.action_shifts(shifting));
  const double begin = static_cast<double>(timeline.step_begin(shifting));
  CHECK(nearest_state(timeline, begin + 1.9) == shifting);
  CHECK(nearest_state(timeline, begin + 2.1) == shifting + 1);
}

TEST_CASE("remap keeps the cursor at the same raw event on another timeline") {
  const Timeline blocks = model_timeline();
  ReplayInput segments_input;
  segments_input.elements = {element(1000, 0), element(2000, 0)};
  push_action(segments_input, 0, 1);  // segment allocs at events 1 and 9
  push_action(segments_input, 1, 9);
  const Timeline segments(std::move(segments_input));
  TimeCursor cursor;
  cursor.place(blocks, 5);  // after event 8
  cursor.remap(blocks, segments);
  CHECK(cursor.state() == 1);
  cursor.place(segments, 2);  // after event 9
  cursor.remap(segments, blocks);
  CHECK(cursor.state() == state_after_event(blocks, 9));
  CHECK(cursor.state() == 5);
}

TEST_CASE("readout: event, time, allocated from blocks and reserved from the series at the same event") {
  ReplayInput blocks_input = model_replay();
  for (size_t i = 0; i < blocks_input.actions.size(); ++i)
    blocks_input.action_time_us.push_back(100 + int64_t(i));
  const Timeline blocks(std::move(blocks_input));
  ReplayInput segments_input;
  segments_input.elements = {element(1000, 0), element(2000, 0)};
  push_action(segments_input, 0, 1);
  push_action(segments_input, 1, 9);
  const Timeline segments(std::move(segments_input));
  // The segments of events 1 and 9, and a segment_map of 500 bytes at event 3 that the segment
  // timeline does not see: 3500 reserved at the end.
  const ReservedSeries reserved = reserved_series_from_changes(3500, {{1, 1000}, {3, 500}, {9, 2000}});

  const CursorReadout at_peak = read_cursor(blocks, blocks, reserved, 5);
  CHECK(at_peak.event == 8);
  REQUIRE(at_peak.time_us.has_value());
  CHECK(*at_peak.time_us == 104);
  CHECK(at_peak.elapsed_us == 4);  // since the first action at 100 us
  CHECK(at_peak.allocated_bytes == 1530);
  CHECK(at_peak.reserved_bytes == 1500);  // the segment of event 1 and the map of event 3

  const CursorReadout start = read_cursor(blocks, blocks, reserved, 0);
  CHECK(start.event == -1);
  CHECK_FALSE(start.time_us.has_value());
  CHECK(start.allocated_bytes == 70);
  CHECK(start.reserved_bytes == 0);

  // Shown timeline = segments: allocated still comes from the blocks at that event.
  const CursorReadout on_segments = read_cursor(segments, blocks, reserved, 2);
  CHECK(on_segments.event == 9);
  CHECK(on_segments.reserved_bytes == 3500);
  CHECK(on_segments.allocated_bytes == blocks.total_at_state(state_after_event(blocks, 9)));
  CHECK_FALSE(on_segments.time_us.has_value());  // the segment replay has no times
}
