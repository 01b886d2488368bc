// Comparison (core/session): two runs compared with no window — the diff at the peaks and at the
// cursor as a background result, a highlighted row followed to new moments, the JSON, run A
// replaced, closing while a diff is computed; and the headless check: a comparison, an
// export and the allocator state at a cursor, all without a GUI.
#include <doctest/doctest.h>

#include <filesystem>
#include <memory>
#include <numeric>
#include <string>

#include "core/analysis/live_elements.h"
#include "core/analysis/moment_table.h"
#include "core/analysis/source_location.h"
#include "core/analysis/state_mapping.h"
#include "core/session/comparison.h"
#include "unit/support/generated_snapshot.h"
#include "unit/support/test_store_fixture.h"

using namespace snapscope;
using snapscope::test::TempDir;
namespace fs = std::filesystem;

namespace {

fs::path converted_snapshot(const TempDir& dir, const std::string& name, uint64_t seed) {
  gen::GenOptions options;
  options.events = 3000;
  options.seed = seed;
  const fs::path pickle = dir / (name + ".pickle");
  test::write_generated(pickle, options);
  test::convert_into(pickle, dir / name);
  return dir / name;
}

// The live bytes by location of `session`'s blocks at `state`, straight from core.
MomentTable expected_locations(const Session& session, size_t state) {
  const Timeline& blocks = session.device()->blocks;
  const std::vector<LiveElement> live = live_elements(blocks, state);
  LocationIndex locations(*session.stack_catalog(), LocationRule::FirstUserFrame);
  return build_moment_table(live, locations, state);
}

uint64_t sum_a(const MomentDiff& diff) {
  return std::accumulate(diff.rows.begin(), diff.rows.end(), uint64_t{0},
                         [](uint64_t sum, const DiffRow& row) { return sum + row.bytes_a; });
}

uint64_t sum_b(const MomentDiff& diff) {
  return std::accumulate(diff.rows.begin(), diff.rows.end(), uint64_t{0},
                         [](uint64_t sum, const DiffRow& row) { return sum + row.bytes_b; });
}

size_t live_at(const ComparedSide& side, const std::string& location) {
  return static_cast<size_t>(std::count(side.locations.begin(), side.locations.end(), location));
}

struct TwoRuns {
  TwoRuns()
      : a(Session::open(converted_snapshot(dir, "a", 21).string())),
        compared(*a, Session::open(converted_snapshot(dir, "b", 22).string())) {
    a->wait_settled();
    compared.b().wait_settled();
    a->cursor.clear();  // opened at its peak: start with no cursor
  }
  TempDir dir;
  std::unique_ptr<Session> a;
  Comparison compared;
};

}  // namespace

TEST_CASE("comparison: without a cursor the two peaks are diffed, by location and by category") {
  TwoRuns runs;
  const Timeline& ta = *runs.a->timeline();
  const Timeline& tb = runs.compared.b().device()->blocks;
  const auto diff = runs.compared.diff_now();
  REQUIRE(diff != nullptr);
  CHECK(diff->at.at_peaks);
  CHECK(diff->at.a_state == peak_state(ta));
  CHECK(diff->at.b_state == peak_state(tb));
  CHECK(diff->by_location.live_a == ta.peak_bytes());
  CHECK(diff->by_location.live_b == tb.peak_bytes());
  CHECK(sum_a(diff->by_location) == ta.peak_bytes());
  CHECK(sum_b(diff->by_location) == tb.peak_bytes());
  // The same rows as core's own tables diffed.
  const MomentDiff expected = diff_moments(expected_locations(*runs.a, diff->at.a_state),
                                           expected_locations(runs.compared.b(), diff->at.b_state));
  REQUIRE(diff->by_location.rows.size() == expected.rows.size());
  CHECK(diff->by_location.rows.front().location == expected.rows.front().location);
  CHECK(diff->by_location.rows.front().delta() == expected.rows.front().delta());
  // Both runs were classified by the time they settled: categories add up to the same totals.
  REQUIRE(diff->at.a_categories != nullptr);
  CHECK(sum_a(diff->by_category) == ta.peak_bytes());
  CHECK(sum_b(diff->by_category) == tb.peak_bytes());
  CHECK(diff->by_path.node(CallTreeDiff::kRoot).bytes_a == ta.peak_bytes());
  CHECK(runs.compared.settled());
}

TEST_CASE("comparison: the diff follows A's cursor in the background, taken by poll") {
  TwoRuns runs;
  runs.compared.diff_now();
  const Timeline& ta = *runs.a->timeline();
  const size_t moment = ta.action_count() / 3;
  runs.a->cursor.place(ta, moment);
  const auto stale = runs.compared.diff();  // the peaks' diff, while the cursor's is computed
  REQUIRE(stale != nullptr);
  CHECK(stale->at.at_peaks);
  CHECK(runs.compared.computing());
  while (!runs.compared.settled()) runs.compared.poll();
  const auto fresh = runs.compared.diff();
  REQUIRE(fresh != nullptr);
  CHECK_FALSE(fresh->at.at_peaks);
  CHECK(fresh->at.a_state == moment);
  CHECK(fresh->at.b_state == runs.compared.alignment()->b_state(moment));
  CHECK(fresh->by_location.live_a == ta.total_at_state(moment));
  CHECK_FALSE(runs.compared.computing());
}

TEST_CASE("comparison: a highlighted row marks its allocations in both runs, again at a new moment") {
  TwoRuns runs;
  auto diff = runs.compared.diff_now();
  REQUIRE_FALSE(diff->by_location.rows.empty());
  const std::string location = diff->by_location.rows.front().location;
  runs.compared.highlight(CompareHighlight{CompareGrouping::Location, location});
  CHECK(runs.a->highlights.group.count() == live_at(diff->a, location));
  CHECK(runs.compared.b().highlights.group.count() == live_at(diff->b, location));
  CHECK(runs.a->highlights.group.count() + runs.compared.b().highlights.group.count() > 0);

  const Timeline& ta = *runs.a->timeline();
  runs.a->cursor.place(ta, ta.action_count() / 2);
  diff = runs.compared.diff_now();
  CHECK(runs.a->highlights.group.count() == live_at(diff->a, location));

  const nlohmann::json json = runs.compared.json(*diff, {});
  CHECK(json["loaded"] == true);
  CHECK(json["highlighted"]["row"] == location);
  CHECK(json["a_state"] == ta.action_count() / 2);
  CHECK(json["peak_a"] == ta.peak_bytes());
  CHECK(json["rows"].size() == std::min<size_t>(20, diff->by_location.rows.size()));

  runs.compared.highlight(std::nullopt);
  CHECK(runs.a->highlights.group.empty());
  CHECK(runs.compared.b().highlights.group.empty());
}

TEST_CASE("comparison: run A replaced, then closed while a diff is computed") {
  TwoRuns runs;
  runs.compared.diff_now();
  auto other = Session::open(converted_snapshot(runs.dir, "a2", 23).string());
  other->wait_settled();
  runs.compared.rebind_a(*other);
  runs.a.reset();  // the old run A goes: nothing of the comparison reads it any more
  const auto diff = runs.compared.diff_now();
  REQUIRE(diff != nullptr);
  CHECK(diff->at.a_timeline == other->timeline());
  CHECK(diff->by_location.live_a == other->timeline()->peak_bytes());

  auto closing =
      std::make_unique<Comparison>(*other, Session::open(converted_snapshot(runs.dir, "b2", 24).string()));
  closing->b().wait_settled();
  other->cursor.place(*other->timeline(), 1);
  closing->diff();  // starts computing
  closing.reset();  // cancels and joins it
}

TEST_CASE("session: a comparison, an export and the allocator state at a cursor, with no window") {
  TwoRuns runs;
  Session& a = *runs.a;
  const Timeline& timeline = *a.timeline();
  const size_t moment = state_after_event(timeline, timeline.action_event(timeline.action_count() / 2));
  a.cursor.place(timeline, moment);

  const auto diff = runs.compared.diff_now();
  REQUIRE(diff != nullptr);
  CHECK(diff->at.a_state == moment);

  a.run_export(ExportFormat::MomentCsv, (runs.dir / "moment.csv").string());
  CHECK(test::read_file(runs.dir / "moment.csv").starts_with("bytes,cumulative_bytes,"));

  const int64_t event = event_of_state(timeline, moment);
  const SessionAllocatorState* state = a.allocator_state_now(event);
  REQUIRE(state != nullptr);
  CHECK(state->event == event);
  CHECK(state->state == a.allocator_history()->after_event(event));
  // Its segments are the reserved memory the chart's reserved curve shows after that event.
  CHECK(state->state.reserved_bytes() == a.device()->reserved.after_event(event));
  CHECK(state->layout.segments.size() == state->state.segments().size());
}
