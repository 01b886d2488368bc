// ReservedSeries: reserved bytes after each event, walked back from the segment snapshot.
#include <doctest/doctest.h>

#include "core/snapshot/snapshot_reader.h"
#include "core/timeline/reserved_series.h"
#include "unit/support/test_store_fixture.h"

using namespace snapscope;

namespace {

constexpr uint64_t MiB = uint64_t{1} << 20;

// An expandable segment that grows by two maps, shrinks by an unmap, and a plain segment that
// is allocated and later freed; 10 MiB mapped at the end.
test::FixtureEvent event(const char* action, uint64_t addr, uint64_t size) {
  test::FixtureEvent out;
  out.action = action;
  out.addr = addr;
  out.size = size;
  return out;
}

test::FixtureSnapshot expandable_fixture() {
  test::FixtureSnapshot snapshot;
  snapshot.traces.resize(1);
  auto& events = snapshot.traces[0];
  events.push_back(event("segment_map", 0x10000000, 4 * MiB));     // 0: 4
  events.push_back(event("alloc", 0x10000000, 1 * MiB));           // 1
  events.push_back(event("segment_map", 0x10400000, 8 * MiB));     // 2: 12
  events.push_back(event("segment_alloc", 0x40000000, 2 * MiB));   // 3: 14
  events.push_back(event("segment_unmap", 0x10a00000, 2 * MiB));   // 4: 12
  events.push_back(event("free_completed", 0x10000000, 1 * MiB));  // 5
  events.push_back(event("segment_free", 0x40000000, 2 * MiB));    // 6: 10
  snapshot.segments = {{0, 0x10000000, 10 * MiB, {{10 * MiB, 0, "inactive"}}}};
  return snapshot;
}

}  // namespace

TEST_CASE("reserved series: segment_map / unmap / alloc / free walked back from the segment snapshot") {
  test::TempDir dir;
  test::write_file(dir.path() / "s.pickle", test::pickle_bytes(expandable_fixture()));
  const Snapshot snapshot = read_snapshot((dir.path() / "s.pickle").string());
  const ReservedSeries series = reserved_series_of(snapshot, 0);
  CHECK_FALSE(series.inconsistent());
  CHECK(series.initial() == 0);
  CHECK(series.final() == 10 * MiB);
  CHECK(series.peak() == 14 * MiB);
  const uint64_t expected[] = {4, 4, 12, 14, 12, 12, 10};
  CHECK(series.after_event(-1) == 0);
  for (int64_t event = 0; event < 7; ++event) {
    CAPTURE(event);
    CHECK(series.after_event(event) == expected[event] * MiB);
  }
  CHECK(series.after_event(100) == 10 * MiB);
  REQUIRE(series.steps().size() == 5);  // block events change nothing
  CHECK(series.steps()[1].event == 2);
}

TEST_CASE("reserved series: the highest value over a range of events, its first event included") {
  const ReservedSeries series =
      reserved_series_from_changes(50, {{2, +30}, {4, -60}, {5, +10}, {9, +100}, {12, -100}});  // initial 70
  CHECK(series.initial() == 70);
  CHECK(series.after_event(1) == 70);
  CHECK(series.after_event(3) == 100);
  CHECK(series.max_between(-1, 1) == 70);
  CHECK(series.max_between(3, 3) == 100);
  CHECK(series.max_between(4, 8) == 50);  // 40 after 4, 50 after 5
  CHECK(series.max_between(5, 11) == 150);
  CHECK(series.max_between(12, 20) == 50);
  CHECK(series.max_between(-1, 20) == 150);
  CHECK(series.peak() == 150);
}

TEST_CASE("reserved series: a trace that frees more than the snapshot accounts for is marked and clamped") {
  // The end holds 10 bytes, but the trace allocated 30 on the way: it would have started at -20.
  const ReservedSeries series = reserved_series_from_changes(10, {{0, +30}});
  CHECK(series.inconsistent());
  CHECK(series.initial() == 0);
  CHECK(series.after_event(0) == 10);
}

TEST_CASE("reserved series: no trace at all is the segment snapshot throughout") {
  test::FixtureSnapshot fixture;
  fixture.traces.resize(1);
  fixture.segments = {{0, 0x100000, 2 * MiB, {{2 * MiB, 0, "inactive"}}},
                      {0, 0x400000, 6 * MiB, {{6 * MiB, 6 * MiB, "active_allocated"}}}};
  test::TempDir dir;
  test::write_file(dir.path() / "s.pickle", test::pickle_bytes(fixture));
  const ReservedSeries series = reserved_series_of(read_snapshot((dir.path() / "s.pickle").string()), 0);
  CHECK(series.steps().empty());
  CHECK(series.after_event(-1) == 8 * MiB);
  CHECK(series.after_event(0) == 8 * MiB);
  CHECK(series.peak() == 8 * MiB);
}
