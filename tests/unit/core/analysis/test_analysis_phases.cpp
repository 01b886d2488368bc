// Annotation pairing and the phase table on hand-built timelines.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>

#include "core/analysis/annotation_pairing.h"
#include "core/analysis/phase_table.h"
#include "core/analysis/state_peaks.h"
#include "unit/support/replay_actions.h"
#include "unit/support/test_analysis_fixtures.h"

using namespace snapscope;
using namespace snapscope::testing;

namespace {

AnnotationRecord mark(const char* stage, const char* name, int64_t time_us, int64_t device = 0) {
  return {stage, name, device, time_us};
}

// Allocations of the given sizes, one per action, at times 10, 20, 30, ...; then frees in the
// given order, continuing the clock.
ReplayInput timed_replay(const std::vector<uint64_t>& sizes, const std::vector<uint32_t>& frees) {
  ReplayInput input;
  for (uint64_t size : sizes) input.elements.push_back(element(size, 0));
  for (uint32_t i = 0; i < sizes.size(); ++i) push_action(input, i, static_cast<EventIndex>(i));
  for (uint32_t elem : frees) push_action(input, elem, static_cast<EventIndex>(input.actions.size()));
  for (size_t i = 0; i < input.actions.size(); ++i) input.action_time_us.push_back(int64_t(10 * (i + 1)));
  return input;
}

}  // namespace

TEST_CASE("analysis: annotations pair by name, nested and overlapping, per device") {
  const std::vector<AnnotationRecord> marks = {
      mark("START", "step", 1), mark("START", "zero_grad", 2), mark("START", "step", 3),  // nested step
      mark("END", "step", 4),   mark("START", "other", 5, 1),  mark("END", "zero_grad", 6),
      mark("END", "step", 7),   mark("END", "backward", 8),    mark("START", "forward", 9)};
  const AnnotationPairing pairing = pair_annotations(marks, 0);
  REQUIRE(pairing.intervals.size() == 3);
  // The inner step START is closed by the first END (stack order).
  CHECK(pairing.intervals[0].name == "step");
  CHECK(pairing.intervals[0].start_time_us == 1);
  CHECK(pairing.intervals[0].end_time_us == 7);
  CHECK(pairing.intervals[0].depth == 0);
  CHECK(pairing.intervals[1].name == "zero_grad");
  CHECK(pairing.intervals[1].end_time_us == 6);
  CHECK(pairing.intervals[1].depth == 1);
  CHECK(pairing.intervals[2].name == "step");
  CHECK(pairing.intervals[2].start_time_us == 3);
  CHECK(pairing.intervals[2].end_time_us == 4);
  CHECK(pairing.intervals[2].depth == 2);
  // Device 1's START is ignored; an END without START and a START never ended are reported.
  REQUIRE(pairing.unmatched.size() == 2);
  CHECK(pairing.unmatched[0].stage == "END");
  CHECK(pairing.unmatched[0].name == "backward");
  CHECK(pairing.unmatched[1].stage == "START");
  CHECK(pairing.unmatched[1].name == "forward");

  const AnnotationPairing other = pair_annotations(marks, 1);
  CHECK(other.intervals.empty());
  CHECK(other.unmatched.size() == 1);
}

TEST_CASE("analysis: action clock maps a time to the state before the first action at or after it") {
  const Timeline timeline(timed_replay({1, 2, 4}, {0}));  // actions at 10, 20, 30, 40
  const ActionClock clock(timeline);
  CHECK(clock.has_times());
  CHECK(clock.state_at_time(0) == 0);
  CHECK(clock.state_at_time(10) == 0);
  CHECK(clock.state_at_time(11) == 1);
  CHECK(clock.state_at_time(40) == 3);
  CHECK(clock.state_at_time(41) == 4);
}

TEST_CASE("analysis: action clock bisects the running maximum when times go back") {
  ReplayInput input = timed_replay({1, 2, 4}, {0});
  input.action_time_us = ActionTimes{10, 30, 20, kNoTime};  // running maximum: 10, 30, 30, 30
  const Timeline timeline(std::move(input));
  const ActionClock clock(timeline);
  const ActionClock copy = clock;  // owns its maximum: a copy must not point into the original
  for (const ActionClock* c : {&clock, &copy}) {
    CHECK(c->has_times());
    CHECK(c->state_at_time(10) == 0);
    CHECK(c->state_at_time(20) == 1);
    CHECK(c->state_at_time(30) == 1);
    CHECK(c->state_at_time(31) == 4);
  }
}

TEST_CASE("analysis: phase table reports start, end, peak inside and delta") {
  // Totals by state: 0, 100, 300, 700, 600, 300, 0.
  const Timeline timeline(timed_replay({100, 200, 400}, {0, 1, 2}));
  const std::vector<AnnotationRecord> marks = {mark("START", "fwd", 15), mark("END", "fwd", 45),
                                               mark("START", "bwd", 45), mark("END", "bwd", 1000),
                                               mark("END", "opt", 5)};
  const PhaseTable table = build_phase_table(timeline, pair_annotations(marks, 0));
  REQUIRE(table.has_times);
  REQUIRE(table.rows.size() == 2);
  const PhaseRow& fwd = table.rows[0];
  CHECK(fwd.start_state == 1);
  CHECK(fwd.end_state == 4);
  CHECK(fwd.start_event == 1);
  CHECK(fwd.start_bytes == timeline.total_at_state(1));
  CHECK(fwd.end_bytes == 600);
  CHECK(fwd.peak_bytes == 700);
  CHECK(fwd.peak_state == 3);
  CHECK(fwd.peak_event == 2);
  CHECK(fwd.delta_bytes() == 500);
  const PhaseRow& bwd = table.rows[1];
  CHECK(bwd.end_state == 6);
  CHECK(bwd.end_event == -1);  // past the trace
  CHECK(bwd.peak_bytes == 600);
  CHECK(bwd.peak_event == -1);  // the peak is the memory it started with
  CHECK(bwd.delta_bytes() == -600);

  const std::string text = phase_table_text(table);
  CHECK(text.find("Delta  Events  Peak at  Phase\n") != std::string::npos);
  CHECK(text.find("  +500 B    1..4        2  fwd\n") != std::string::npos);
  CHECK(text.find("-600 B") != std::string::npos);
  CHECK(text.find("unmatched END 'opt' at time_us 5") != std::string::npos);

  const PhaseTable filtered = build_phase_table(timeline, pair_annotations(marks, 0), "bw");
  REQUIRE(filtered.rows.size() == 1);
  CHECK(filtered.rows[0].name == "bwd");
  const PhaseTable none = build_phase_table(timeline, pair_annotations(std::span(marks).first(4), 0), "zzz");
  CHECK(phase_table_text(none) == "no annotation matches the filter\n");
}

TEST_CASE("analysis: phase depth levels are the table's, known from the pairing alone") {
  const Timeline timeline(timed_replay({100, 200, 400}, {0, 1, 2}));
  const std::vector<AnnotationRecord> marks = {
      mark("START", "step", 5),          mark("START", "forward", 15),    mark("START", "attn", 20),
      mark("START", "untimed", kNoTime), mark("END", "untimed", kNoTime),  // depth 3, not placed
      mark("END", "attn", 25),           mark("END", "forward", 35),      mark("START", "backward", 40),
      mark("END", "backward", 55),       mark("END", "step", 60),         mark("START", "never ended", 61)};
  const AnnotationPairing pairing = pair_annotations(marks, 0);
  REQUIRE(pairing.intervals.size() == 5);
  CHECK(pairing.intervals[3].depth == 3);
  const bool timed = timeline.input().has_action_times();
  CHECK(timed);
  for (const std::string filter : {"", "step", "forward", "attn", "backward", "untimed", "zzz"}) {
    CAPTURE(filter);
    const PhaseTable table = build_phase_table(timeline, pairing, filter);
    uint32_t levels = 0;
    for (const PhaseRow& row : table.rows) levels = std::max(levels, row.depth + 1);
    CHECK(phase_depth_levels(pairing, filter, timed) == levels);
  }
  CHECK(phase_depth_levels(pairing, "", timed) == 3);  // step > forward > attn; the untimed one is not placed
  CHECK(phase_depth_levels(pairing, "backward", timed) == 2);
  CHECK(phase_depth_levels(pairing, "zzz", timed) == 0);
  CHECK(phase_depth_levels(pairing, "", false) == 0);
}

TEST_CASE("analysis: a trace without time_us cannot place phases, and says so") {
  ReplayInput input = timed_replay({100}, {});
  input.action_time_us.clear();
  const Timeline timeline(std::move(input));
  const PhaseTable table = build_phase_table(
      timeline, pair_annotations(std::vector{mark("START", "a", 1), mark("END", "a", 2)}, 0));
  CHECK_FALSE(table.has_times);
  CHECK_FALSE(timeline.input().has_action_times());
  CHECK(table.rows.empty());
  CHECK(phase_table_text(table).find("no time_us") != std::string::npos);
  CHECK(phase_table_text(build_phase_table(timeline, {})) == "no annotations\n");
}

TEST_CASE("analysis: range peaks across block boundaries match a linear scan") {
  // 5000 allocations of varying size, then frees: several 1024-state blocks.
  std::vector<uint64_t> sizes;
  for (uint64_t i = 0; i < 3000; ++i) sizes.push_back((i * 7919) % 1000 + 1);
  std::vector<uint32_t> frees;
  for (uint32_t i = 0; i < 2000; ++i) frees.push_back((i * 31) % 3000);
  std::sort(frees.begin(), frees.end());
  frees.erase(std::unique(frees.begin(), frees.end()), frees.end());
  const Timeline timeline(timed_replay(sizes, frees));
  const StatePeaks peaks(timeline);
  const std::vector<std::pair<size_t, size_t>> ranges = {{0, 0},     {0, 4000},    {1000, 1030}, {1023, 1024},
                                                         {10, 3500}, {2047, 4095}, {3001, 4100}, {500, 2600}};
  for (auto [first, last] : ranges) {
    last = std::min(last, timeline.action_count());
    size_t best = first;
    for (size_t s = first; s <= last; ++s) {
      if (timeline.total_at_state(s) > timeline.total_at_state(best)) best = s;
    }
    const StatePeak peak = peaks.max_in(first, last);
    CHECK(peak.state == best);
    CHECK(peak.bytes == timeline.total_at_state(best));
  }
}

TEST_CASE("analysis: repeated phases group into one row 'name ×N', and --top bounds the text") {
  // Six allocations at times 10..60, then frees; a compiled graph's benchmark runs three times
  // around them, and one step spans everything.
  const Timeline timeline(timed_replay({100, 200, 300, 400, 500, 600}, {5, 4, 3, 2, 1, 0}));
  const std::vector<AnnotationRecord> marks = {mark("START", "step", 5), mark("START", "bench", 9),
                                               mark("END", "bench", 21), mark("START", "bench", 29),
                                               mark("END", "bench", 41), mark("START", "bench", 49),
                                               mark("END", "bench", 61), mark("END", "step", 125)};
  const PhaseTable table = build_phase_table(timeline, pair_annotations(marks, 0));
  REQUIRE(table.rows.size() == 4);
  REQUIRE(table.groups.size() == 2);
  const PhaseGroup& step = table.groups[0];
  CHECK(step.label() == "step");
  CHECK(step.count == 1);
  const PhaseGroup& bench = table.groups[1];
  CHECK(bench.label() == "bench \u00d73");
  CHECK(bench.count == 3);
  CHECK(bench.span.start_state == table.rows[bench.first_row].start_state);
  CHECK(bench.span.end_state == table.rows.back().end_state);  // the last repetition's end
  // The highest peak among the three: the third run ends with all six allocations live.
  CHECK(bench.span.peak_bytes == 2100);
  CHECK(bench.peak_row == 3);
  const std::string all = phase_table_text(table);
  CHECK(all.find("bench \u00d73\n") != std::string::npos);
  CHECK(all.find("more phase names") == std::string::npos);
  const std::string bounded = phase_table_text(table, 1);
  CHECK(bounded.find("bench") == std::string::npos);
  CHECK(bounded.find("(1 more phase names; --top 0 shows all)") != std::string::npos);
}
