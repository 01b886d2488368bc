// elements.db read back with the sqlite3 API: row counts, one known allocation's columns,
// its stack frames, the device row against Timeline, and the promised indexes.
#include <doctest/doctest.h>

#include <sqlite3.h>

#include <algorithm>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "core/cursor/allocation_search.h"
#include "core/snapshot/snapshot_reader.h"
#include "core/store/elements_db/elements_db.h"
#include "core/store/elements_db/elements_db_reader.h"
#include "core/store/elements_db/sqlite_handle.h"
#include "core/view/allocation_details.h"
#include "unit/support/test_store_fixture.h"

using namespace snapscope;
using snapscope::test::TempDir;

namespace {

struct BuiltDb {
  TempDir dir;
  Snapshot snapshot;
  std::vector<std::unique_ptr<Timeline>> timelines;  // blocks, segments per device
  std::vector<std::unique_ptr<ReservedSeries>> reserved;
  std::string path;
};

std::unique_ptr<BuiltDb> build_fixture_db() {
  auto built = std::make_unique<BuiltDb>();
  test::write_file(built->dir / "s.pickle", test::pickle_bytes(test::standard_fixture()));
  built->snapshot = read_snapshot((built->dir / "s.pickle").string());
  std::vector<DeviceTimelines> devices;
  for (const int device : built->snapshot.devices()) {
    // Raw pointers, not references into the vector: it reallocates as it grows.
    const Timeline* blocks = built->timelines
                                 .emplace_back(std::make_unique<Timeline>(
                                     derive_replay_input(built->snapshot, device, TimelineKind::Blocks)))
                                 .get();
    const Timeline* segments = built->timelines
                                   .emplace_back(std::make_unique<Timeline>(
                                       derive_replay_input(built->snapshot, device, TimelineKind::Segments)))
                                   .get();
    const ReservedSeries* reserved =
        built->reserved
            .emplace_back(std::make_unique<ReservedSeries>(reserved_series_of(built->snapshot, device)))
            .get();
    devices.push_back({blocks, segments, compute_device_stats(built->snapshot, *blocks, *segments, *reserved),
                       nullptr, nullptr, reserved});
  }
  built->path = (built->dir / "elements.db").string();
  write_elements_db(built->snapshot, devices, built->path);
  return built;
}

int64_t query_int(SqliteDatabase& db, const std::string& sql) {
  SqliteStatement statement = db.prepare(sql);
  REQUIRE(statement.next_row());
  return statement.column_int(0);
}

std::vector<std::string> query_texts(SqliteDatabase& db, const std::string& sql) {
  SqliteStatement statement = db.prepare(sql);
  std::vector<std::string> rows;
  while (statement.next_row()) rows.push_back(statement.column_text(0));
  return rows;
}

}  // namespace

TEST_CASE("elements.db: row counts per table and device") {
  const auto built = build_fixture_db();
  SqliteDatabase db(built->path, SqliteDatabase::Mode::ReadOnly);
  CHECK(query_int(db, "SELECT value FROM meta WHERE key = 'format_version'") == kElementsDbVersion);
  CHECK(query_int(db, "SELECT count(*) FROM devices") == 2);
  CHECK(query_int(db, "SELECT count(*) FROM event_view WHERE device = 0") == 7);
  CHECK(query_int(db, "SELECT count(*) FROM event_view WHERE device = 1") == 2);
  CHECK(query_int(db, "SELECT count(*) FROM events WHERE id >= 1 << 40") == 2);
  CHECK(query_int(db, "SELECT count(*) FROM allocations WHERE device = 0") == 5);
  CHECK(query_int(db, "SELECT count(*) FROM allocations WHERE device = 1") == 1);
  CHECK(query_int(db, "SELECT count(*) FROM segment_allocations WHERE device = 0") == 1);
  CHECK(query_int(db, "SELECT count(*) FROM segments") == 1);
  CHECK(query_int(db, "SELECT count(*) FROM blocks") == 2);
  CHECK(query_int(db, "SELECT count(*) FROM strings") ==
        static_cast<int64_t>(built->snapshot.strings.size()));
  CHECK(query_int(db, "SELECT count(*) FROM frames") == static_cast<int64_t>(built->snapshot.frames.size()));
  CHECK(query_texts(db, "SELECT value FROM allocator_settings WHERE key = 'max_split_size'") ==
        std::vector<std::string>{"-1"});
  CHECK(query_int(db,
                  "SELECT count(*) FROM allocations a JOIN origin_names o USING (origin) "
                  "WHERE o.name = 'free_without_alloc'") == 1);
  // events and allocation_rows are written as pages, not through SQLite: it checks them whole,
  // and the planner has their row counts.
  CHECK(query_texts(db, "PRAGMA integrity_check") == std::vector<std::string>{"ok"});
  CHECK(query_texts(db,
                    "SELECT tbl || ':' || stat FROM sqlite_stat1 WHERE idx IS NULL AND tbl IN "
                    "('events', 'allocation_rows') ORDER BY tbl") ==
        std::vector<std::string>{"allocation_rows:6", "events:9"});
}

TEST_CASE("elements.db: a known allocation's columns and stack frames") {
  const auto built = build_fixture_db();
  SqliteDatabase db(built->path, SqliteDatabase::Mode::ReadOnly);
  SqliteStatement a = db.prepare(
      "SELECT elem, size, alloc_event, free_event, origin, alloc_time_us, free_time_us, stream, "
      "(SELECT text FROM strings WHERE id = compile_context), stack_id, stack_index, total_after_alloc "
      "FROM allocation_view WHERE device = 0 AND addr = 4096");
  REQUIRE(a.next_row());
  const auto elem = static_cast<uint32_t>(a.column_int(0));
  CHECK(a.column_int(1) == 100);
  CHECK(a.column_int(2) == 0);
  CHECK(a.column_int(3) == 3);
  CHECK(a.column_int(4) == static_cast<int64_t>(Origin::Traced));
  CHECK(a.column_int(5) == 10);
  CHECK(a.column_int(6) == 31);
  CHECK(a.column_int(7) == 7);
  CHECK(a.column_text(8) == "ctx_a");
  const Timeline& blocks = *built->timelines[0];
  CHECK(a.column_int(10) == blocks.stack_position(elem));
  CHECK(a.column_int(11) == static_cast<int64_t>(blocks.total_at_state(blocks.alloc_state(elem))));

  const std::string frames_sql =
      "SELECT (SELECT text FROM strings WHERE id = f.name) FROM stacks s JOIN frames f ON f.id = s.frame_id "
      "WHERE s.stack_id = " +
      std::to_string(a.column_int(9)) + " ORDER BY s.depth";
  CHECK(query_texts(db, frames_sql) == std::vector<std::string>{"alloc_a", "main"});
  CHECK_FALSE(a.next_row());
}

TEST_CASE("elements.db: stack_index and free_event through both views, stored only as the views need") {
  const auto built = build_fixture_db();
  SqliteDatabase db(built->path, SqliteDatabase::Mode::ReadOnly);
  for (const char* view : {"allocations", "allocation_view"}) {
    CAPTURE(view);
    SqliteStatement rows =
        db.prepare(std::string("SELECT device, elem, stack_index, coalesce(alloc_event, -1), "
                               "coalesce(free_event, -1) FROM ") +
                   view);
    size_t seen = 0;
    while (rows.next_row()) {
      const Timeline& blocks = *built->timelines[static_cast<size_t>(rows.column_int(0)) * 2];
      const auto elem = static_cast<uint32_t>(rows.column_int(1));
      CHECK(rows.column_int(2) == blocks.stack_position(elem));
      CHECK(rows.column_int(3) == blocks.element(elem).alloc_event);
      CHECK(rows.column_int(4) == blocks.element(elem).free_event);
      ++seen;
    }
    CHECK(seen == 6);
  }
  // Device 0 has a free-without-alloc element, so its rows need both kinds of stack_index.
  CHECK(query_int(db, "SELECT count(*) FROM allocation_rows WHERE stack_index IS NULL AND id < 1 << 40") > 0);
  CHECK(query_int(db, "SELECT count(*) FROM allocation_rows WHERE stack_index IS NOT NULL AND id < 1 << 40") >
        0);
  // free_after counts from the alloc event; the free-without-alloc element's from event 0.
  CHECK(query_int(db,
                  "SELECT count(*) FROM allocation_rows r JOIN allocations a USING (id) "
                  "WHERE r.free_after != a.free_event - coalesce(a.alloc_event, 0)") == 0);
  CHECK(query_int(
            db, "SELECT count(*) FROM allocation_rows WHERE alloc_event IS NOT NULL AND free_after > 0") > 0);
  CHECK(query_int(db, "SELECT count(*) FROM allocation_rows WHERE alloc_event IS NULL AND free_after > 0") >
        0);
}

TEST_CASE("elements.db: pre-existing and still-live allocations have NULL events") {
  const auto built = build_fixture_db();
  SqliteDatabase db(built->path, SqliteDatabase::Mode::ReadOnly);
  SqliteStatement x =
      db.prepare("SELECT alloc_event IS NULL, free_event, size FROM allocations WHERE addr = 36864");
  REQUIRE(x.next_row());
  CHECK(x.column_int(0) == 1);
  CHECK(x.column_int(1) == 4);
  CHECK(x.column_int(2) == 50);
  SqliteStatement ghost = db.prepare(
      "SELECT alloc_event IS NULL, free_event IS NULL, size, requested_size, block_id FROM allocation_view "
      "WHERE addr = 1048576");
  REQUIRE(ghost.next_row());
  CHECK(ghost.column_int(0) == 1);
  CHECK(ghost.column_int(1) == 1);
  CHECK(ghost.column_int(2) == 500);
  CHECK(ghost.column_int(3) == 500);
  CHECK(ghost.column_int(4) == 0);
  CHECK(query_int(db, "SELECT free_event IS NULL FROM allocations WHERE addr = 12288") == 1);
}

TEST_CASE("elements.db: events store times relative to the device's first timestamp") {
  const auto built = build_fixture_db();
  SqliteDatabase db(built->path, SqliteDatabase::Mode::ReadOnly);
  CHECK(query_int(db, "SELECT min(dt_us) FROM events WHERE id < 1 << 40") == 0);
  CHECK(query_int(db,
                  "SELECT count(*) FROM event_view e JOIN devices d USING (device) "
                  "WHERE e.time_us < d.first_time_us OR e.time_us > d.last_time_us") == 0);
  CHECK(query_int(db, "SELECT count(*) FROM pragma_table_info('allocations') WHERE name = 'alloc_time_us'") ==
        0);
}

TEST_CASE("elements.db: the viewer's reader puts the derivable columns back") {
  const auto built = build_fixture_db();
  int64_t elem = 0;
  {
    SqliteDatabase db(built->path, SqliteDatabase::Mode::ReadOnly);
    elem = query_int(db, "SELECT elem FROM allocations WHERE device = 0 AND addr = 4096");
  }
  const AllocationDetails details = read_allocation_details(
      ElementsDbReader(built->path), 0, TimelineKind::Blocks, static_cast<uint32_t>(elem));
  CHECK(details.alloc_time_us == 10);
  CHECK(details.free_time_us == 31);
  CHECK(details.compile_context == "ctx_a");
  CHECK(details.stream == 7);
  CHECK(details.requested_size == 100);
}

TEST_CASE("elements.db: allocations found by their allocation event's compile_context (Ctrl+F meta:)") {
  const auto built = build_fixture_db();
  SqliteDatabase db(built->path, SqliteDatabase::Mode::ReadOnly);
  const int64_t elem = query_int(db, "SELECT elem FROM allocations WHERE device = 0 AND addr = 4096");
  const int64_t event = query_int(db, "SELECT alloc_event FROM allocations WHERE device = 0 AND addr = 4096");
  const ElementsDbReader reader(built->path);
  CHECK(reader.events_with_metadata(0, "ctx_a") == std::vector<int64_t>{event});
  CHECK(reader.events_with_metadata(0, "CTX") == std::vector<int64_t>{event});
  CHECK(reader.events_with_metadata(0, "ctx_b").empty());
  CHECK(reader.events_with_metadata(5, "ctx_a").empty());  // no such device
  const Timeline& blocks = *built->timelines.front();
  CHECK(elements_allocated_by(blocks, reader.events_with_metadata(0, "ctx_a")) ==
        std::vector<uint32_t>{static_cast<uint32_t>(elem)});
}

TEST_CASE("elements.db: the viewer's reader returns the forward op's stack of an allocation") {
  const auto built = build_fixture_db();
  int64_t elem = 0, event = 0;
  {
    SqliteDatabase db(built->path, SqliteDatabase::Mode::ReadOnly);
    elem = query_int(db, "SELECT elem FROM allocations WHERE device = 0 AND addr = 4096");
    event = query_int(db, "SELECT alloc_event FROM allocations WHERE device = 0 AND addr = 4096");
  }
  sqlite3* raw = nullptr;
  REQUIRE(sqlite3_open(built->path.c_str(), &raw) == SQLITE_OK);
  const std::string insert =
      "INSERT INTO strings (id, text) VALUES (1000000, 'model.py:79:forward\nm.py:2:main');"
      "INSERT OR REPLACE INTO event_extras (device, idx, raw_action, forward_frames) VALUES (0, " +
      std::to_string(event) + ", 0, 1000000)";
  CHECK(sqlite3_exec(raw, insert.c_str(), nullptr, nullptr, nullptr) == SQLITE_OK);
  sqlite3_close(raw);
  const AllocationDetails details = read_allocation_details(
      ElementsDbReader(built->path), 0, TimelineKind::Blocks, static_cast<uint32_t>(elem));
  REQUIRE(details.forward_stack.size() == 2);
  CHECK(details.forward_stack[0].filename == "model.py");
  CHECK(details.forward_stack[0].line == 79);
  CHECK(details.forward_stack[1].name == "main");
  CHECK(details_to_json(details, false)["forward_stack"].size() == 2);
}

TEST_CASE("elements.db: the viewer's reader rejects another format version clearly") {
  const auto built = build_fixture_db();
  sqlite3* raw = nullptr;
  REQUIRE(sqlite3_open(built->path.c_str(), &raw) == SQLITE_OK);
  CHECK(sqlite3_exec(raw, "UPDATE meta SET value = '1' WHERE key = 'format_version'", nullptr, nullptr,
                     nullptr) == SQLITE_OK);
  sqlite3_close(raw);
  CHECK_THROWS_WITH_AS(ElementsDbReader{built->path}, doctest::Contains("format version 1"),
                       std::runtime_error);
}

TEST_CASE("elements.db: device rows agree with the timelines") {
  const auto built = build_fixture_db();
  SqliteDatabase db(built->path, SqliteDatabase::Mode::ReadOnly);
  const Timeline& blocks = *built->timelines[0];
  const Timeline& segments = *built->timelines[1];
  SqliteStatement row = db.prepare(
      "SELECT peak_bytes, peak_event, initial_bytes, final_bytes, reserved_bytes, peak_reserved_bytes, "
      "block_actions FROM devices WHERE device = 0");
  REQUIRE(row.next_row());
  CHECK(row.column_int(0) == static_cast<int64_t>(blocks.peak_bytes()));
  CHECK(row.column_int(1) == blocks.action_event(blocks.peak_action()));
  CHECK(row.column_int(2) == static_cast<int64_t>(blocks.total_at_state(0)));
  CHECK(row.column_int(3) == static_cast<int64_t>(blocks.total_at_state(blocks.action_count())));
  CHECK(row.column_int(4) == 2 << 20);
  CHECK(row.column_int(5) == static_cast<int64_t>(segments.peak_bytes()));
  CHECK(row.column_int(6) == static_cast<int64_t>(blocks.action_count()));
  // Worked out by hand: 550 B live at t = 0 (ghost 500 + X 50), peak 1000 B once C is allocated.
  CHECK(row.column_int(0) == 1000);
  CHECK(row.column_int(1) == 5);
  CHECK(row.column_int(2) == 550);
}

TEST_CASE("elements.db: an event's stream and texts are one event_contexts row, shared") {
  const auto built = build_fixture_db();
  SqliteDatabase db(built->path, SqliteDatabase::Mode::ReadOnly);
  // Row 0 is the all-zero context, and every other row is a distinct triple that some event uses.
  CHECK(query_int(db,
                  "SELECT count(*) FROM event_contexts WHERE id = 0 AND stream = 0 AND "
                  "compile_context = 0 AND user_metadata = 0") == 1);
  CHECK(query_int(db, "SELECT count(*) FROM event_contexts") ==
        query_int(db,
                  "SELECT count(*) FROM (SELECT DISTINCT stream, compile_context, user_metadata FROM "
                  "event_view UNION SELECT 0, 0, 0)"));
  CHECK(query_int(db,
                  "SELECT count(*) FROM event_contexts c WHERE c.id != 0 AND NOT EXISTS "
                  "(SELECT 1 FROM events e WHERE e.context = c.id)") == 0);
  CHECK(query_int(db,
                  "SELECT count(*) FROM events e LEFT JOIN event_contexts c ON c.id = e.context "
                  "WHERE c.id IS NULL") == 0);
  CHECK(query_int(db, "SELECT count(*) FROM event_view WHERE stream = 7") > 1);
  CHECK(query_int(db,
                  "SELECT count(DISTINCT e.context) FROM events e JOIN event_contexts c ON c.id = e.context "
                  "WHERE c.stream = 7 AND c.compile_context = 0 AND c.user_metadata = 0") == 1);
}

namespace {

// Each event's stream as SQL joins it from event_contexts (0 for a context no row has).
std::vector<uint64_t> joined_streams(const std::string& path, int device, const std::string& where = "1") {
  SqliteDatabase db(path, SqliteDatabase::Mode::ReadOnly);
  SqliteStatement rows = db.prepare(
      "SELECT coalesce(c.stream, 0) FROM events e LEFT JOIN event_contexts c ON c.id = e.context "
      "WHERE e.id >> 40 = " +
      std::to_string(device) + " AND " + where + " ORDER BY e.id");
  std::vector<uint64_t> streams;
  while (rows.next_row()) streams.push_back(static_cast<uint64_t>(rows.column_int(0)));
  return streams;
}

std::vector<uint64_t> read_streams(const std::vector<EventRow>& rows) {
  std::vector<uint64_t> streams;
  for (const EventRow& row : rows) streams.push_back(row.stream);
  return streams;
}

// What ElementsDbReader reads of `path`'s events agrees with the join, for every device.
void check_streams_as_joined(const std::string& path, const std::vector<int>& devices) {
  const ElementsDbReader reader(path);
  for (const int device : devices) {
    INFO("device " << device);
    std::vector<EventRow> rows;
    reader.read_events(device, 0, reader.event_count(device), rows);
    REQUIRE(rows.size() == reader.event_count(device));
    CHECK(read_streams(rows) == joined_streams(path, device));
    std::string segment_actions;
    for (Action action :
         {Action::SegmentAlloc, Action::SegmentFree, Action::SegmentMap, Action::SegmentUnmap})
      segment_actions += (segment_actions.empty() ? "" : ", ") + std::to_string(static_cast<int>(action));
    CHECK(read_streams(reader.segment_events(device)) ==
          joined_streams(path, device, "e.action IN (" + segment_actions + ")"));
  }
}

}  // namespace

// The reader looks an event's stream up in event_contexts read once instead of joining per row:
// it must give what the join gives, also for ids with gaps (only in a crafted file).
TEST_CASE("elements.db: the events the reader reads carry their context's stream, as a join gives it") {
  const auto built = build_fixture_db();
  const std::vector<int> devices = built->snapshot.devices();
  check_streams_as_joined(built->path, devices);
  size_t on_stream_7 = 0;  // the fixture's second stream: the lookup has more than row 0 to find
  for (const int device : devices) {
    const std::vector<uint64_t> streams = joined_streams(built->path, device);
    on_stream_7 += static_cast<size_t>(std::count(streams.begin(), streams.end(), 7u));
  }
  CHECK(on_stream_7 > 1);

  const std::string crafted = (built->dir / "crafted.db").string();
  std::filesystem::copy_file(built->path, crafted);
  {
    SqliteDatabase db(crafted, SqliteDatabase::Mode::Create);
    db.exec(
        "INSERT INTO event_contexts VALUES (1000, 99, 0, 0);"
        "UPDATE events SET context = 1000 WHERE id = (SELECT min(id) FROM events WHERE id >> 40 = 0);"
        "UPDATE events SET context = 500 WHERE id = (SELECT max(id) FROM events WHERE id >> 40 = 0);");
  }
  check_streams_as_joined(crafted, devices);
  const std::vector<uint64_t> streams = joined_streams(crafted, 0);
  REQUIRE(streams.size() > 2);
  CHECK(streams.front() == 99);  // a context after the gap
  CHECK(streams.back() == 0);    // a context in the gap: no row
}

TEST_CASE("elements.db: events keep the raw trace, with NULL for missing timestamps") {
  const auto built = build_fixture_db();
  SqliteDatabase db(built->path, SqliteDatabase::Mode::ReadOnly);
  SqliteStatement event = db.prepare(
      "SELECT n.name, e.addr, e.size, e.stream, e.time_us FROM event_view e JOIN action_names n USING "
      "(action) "
      "WHERE e.device = 0 AND e.idx = 2");
  REQUIRE(event.next_row());
  CHECK(event.column_text(0) == "free_requested");
  CHECK(event.column_int(1) == 0x1000);
  CHECK(event.column_int(2) == 100);
  CHECK(event.column_int(3) == 7);
  CHECK(event.column_int(4) == 30);
  // The alloc/free of an allocation are found through its event columns.
  CHECK(query_int(db,
                  "SELECT count(*) FROM event_view e JOIN allocations a ON a.device = e.device AND "
                  "(a.alloc_event = e.idx OR a.free_event = e.idx) WHERE e.device = 0 AND a.addr = e.addr") ==
        5);
}

TEST_CASE("elements.db: the common queries are answered from indexes") {
  const auto built = build_fixture_db();
  SqliteDatabase db(built->path, SqliteDatabase::Mode::ReadOnly);
  const auto plan = [&](const std::string& sql) {
    SqliteStatement statement = db.prepare("EXPLAIN QUERY PLAN " + sql);
    std::string steps;
    while (statement.next_row()) steps += statement.column_text(3) + ";";
    return steps;
  };
  CHECK(plan("SELECT * FROM segment_allocations WHERE addr = 4096").find("segment_allocations_by_addr") !=
        std::string::npos);
  // No size, addr or alloc_event index by design (elements_db_schema.cpp): those filters scan.
  CHECK(plan("SELECT * FROM allocations WHERE device = 0 AND alloc_event = 3").find("alloc_event=?") ==
        std::string::npos);
  CHECK(plan("SELECT * FROM allocations WHERE size > 100").find("SCAN") != std::string::npos);
  CHECK(plan("SELECT * FROM allocations WHERE addr = 4096").find("SCAN") != std::string::npos);
  CHECK(plan("SELECT * FROM events WHERE id = 3").find("INTEGER PRIMARY KEY") != std::string::npos);
  // The views look events up by key, not by scanning; an allocation is found by its id.
  CHECK(plan("SELECT alloc_time_us FROM allocation_view WHERE id = (0 << 40) | 2").find("SCAN") ==
        std::string::npos);
  CHECK(plan("SELECT * FROM stacks WHERE stack_id = 1").find("PRIMARY KEY") != std::string::npos);
  CHECK(plan("SELECT * FROM allocations WHERE id = (1 << 40) | 2").find("INTEGER PRIMARY KEY") !=
        std::string::npos);
  CHECK(plan("SELECT * FROM allocations WHERE id BETWEEN 0 AND 1099511627775").find("INTEGER PRIMARY KEY") !=
        std::string::npos);
}

TEST_CASE("elements.db: refuses to overwrite an existing file") {
  const auto built = build_fixture_db();
  CHECK_THROWS_WITH_AS(write_elements_db(built->snapshot, {}, built->path),
                       (built->path + ": already exists").c_str(), std::runtime_error);
}
