// Aligning two runs on one x axis: by event, by time since the start, by matching annotations.
#include <doctest/doctest.h>

#include "core/compare/run_alignment.h"
#include "unit/support/replay_actions.h"
#include "unit/support/test_analysis_fixtures.h"

using namespace snapscope;
using namespace snapscope::testing;

namespace {

// `count` allocations of 10 B, one per action, at events 0, 1, ... and times start + step * i.
ReplayInput steady_run(size_t count, int64_t start_us, int64_t step_us) {
  ReplayInput input;
  for (size_t i = 0; i < count; ++i) {
    input.elements.push_back(element(10, 0));
    push_action(input, static_cast<uint32_t>(i), static_cast<EventIndex>(i));
    input.action_time_us.push_back(start_us + step_us * static_cast<int64_t>(i));
  }
  return input;
}

AnnotationRecord mark(const char* stage, const char* name, int64_t time_us) {
  return {stage, name, 0, time_us};
}

}  // namespace

TEST_CASE("alignment: by events, the same raw event; by time, the same time since each start") {
  const Timeline a(steady_run(10, 1000, 10));
  const Timeline b(steady_run(40, 5000, 5));
  const RunAlignment events(a, b, AlignMode::Events, {}, {});
  CHECK(events.effective_mode() == AlignMode::Events);
  CHECK(events.b_state(0) == 0);
  CHECK(events.b_state(4) == 4);  // after event 3 in both
  const RunAlignment time(a, b, AlignMode::Time, {}, {});
  CHECK(time.effective_mode() == AlignMode::Time);
  CHECK(time.b_state(4) == 7);  // A's 4th action is 30 us in; B's actions at 0..30 us are 7
}

TEST_CASE("alignment: by steps, the n-th range of the same name lines up, and ProfilerStep#k matches any k") {
  const Timeline a(steady_run(100, 0, 10));  // actions at 0, 10, ..., 990 us
  const Timeline b(steady_run(200, 0, 10));  // twice as long: its steps take twice the actions
  const std::vector<AnnotationRecord> in_a = {
      mark("START", "ProfilerStep#1", 0), mark("END", "ProfilerStep#1", 500),
      mark("START", "ProfilerStep#2", 500), mark("END", "ProfilerStep#2", 1000)};
  const std::vector<AnnotationRecord> in_b = {
      mark("START", "ProfilerStep#7", 0), mark("END", "ProfilerStep#7", 1000),
      mark("START", "ProfilerStep#8", 1000), mark("END", "ProfilerStep#8", 2000)};
  const RunAlignment steps(a, b, AlignMode::Steps, in_a, in_b);
  CHECK(steps.effective_mode() == AlignMode::Steps);
  CHECK(steps.anchor_count() >= 2);
  CHECK(steps.b_state(50) == 100);  // the second step's start
  CHECK(steps.b_state(25) == 50);   // half way through the first step
  CHECK(steps.b_state(75) == 150);
  // No shared names: by events.
  const std::vector<AnnotationRecord> other = {mark("START", "eval", 0), mark("END", "eval", 10)};
  const RunAlignment unmatched(a, b, AlignMode::Steps, in_a, other);
  CHECK(unmatched.effective_mode() == AlignMode::Events);
  CHECK(unmatched.b_state(50) == 50);
}

TEST_CASE("alignment: time without timestamps falls back to events") {
  ReplayInput untimed = steady_run(10, 0, 1);
  untimed.action_time_us.clear();
  const Timeline a(std::move(untimed));
  const Timeline b(steady_run(10, 0, 1));
  const RunAlignment time(a, b, AlignMode::Time, {}, {});
  CHECK(time.effective_mode() == AlignMode::Events);
  CHECK(time.b_state(3) == 3);
}

TEST_CASE("alignment: steps run from one start of the most repeated range to the next") {
  const Timeline run(steady_run(100, 0, 10));
  const std::vector<AnnotationRecord> marks = {
      mark("START", "forward", 0),          mark("END", "forward", 200),
      mark("START", "ProfilerStep#4", 0),   mark("END", "ProfilerStep#4", 500),
      mark("START", "forward", 500),        mark("END", "forward", 700),
      mark("START", "ProfilerStep#5", 500), mark("END", "ProfilerStep#5", 1000)};
  const auto steps = step_ranges(run, marks);
  REQUIRE(steps.size() == 2);  // forward and ProfilerStep tie at 2: the one starting first (tie: forward's)
  CHECK(steps[0] == std::pair<size_t, size_t>{0, 50});
  CHECK(steps[1] == std::pair<size_t, size_t>{50, 100});
  CHECK(step_ranges(run, {}).empty());
}

TEST_CASE("alignment: B's state maps back to A's axis, or is off it when the alignment cuts it") {
  const Timeline a(steady_run(10, 1000, 10));
  const Timeline b(steady_run(40, 5000, 5));
  const RunAlignment events(a, b, AlignMode::Events, {}, {});
  CHECK(events.b_reached() == std::pair<size_t, size_t>{0, 10});
  CHECK(events.a_state_for(4) == 4);
  CHECK(events.a_state_for(10) == 10);
  CHECK_FALSE(events.a_state_for(11).has_value());  // B runs on after A's last event
  const RunAlignment time(a, b, AlignMode::Time, {}, {});
  const std::optional<size_t> back = time.a_state_for(7);
  REQUIRE(back.has_value());
  CHECK(time.b_state(*back) >= 7);
  CHECK((*back == 0 || time.b_state(*back - 1) < 7));  // the first such A state
}
