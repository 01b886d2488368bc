// SqliteRowFeed: rows from a callback into a table through an eponymous virtual table; and the
// events table's keys, which it mostly leaves to SQLite.
#include <doctest/doctest.h>

#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/snapshot/model.h"
#include "core/store/elements_db/elements_db_events.h"
#include "core/store/elements_db/elements_db_schema.h"
#include "core/store/elements_db/sqlite_handle.h"
#include "core/store/elements_db/sqlite_row_feed.h"
#include "unit/support/test_store_fixture.h"

using namespace snapscope;
using snapscope::test::TempDir;

namespace {

std::vector<std::string> rows_of(SqliteDatabase& db, const std::string& sql, int columns) {
  SqliteStatement query = db.prepare(sql);
  std::vector<std::string> rows;
  while (query.next_row()) {
    std::string row;
    for (int c = 0; c < columns; ++c) row += (query.column_is_null(c) ? "-" : query.column_text(c)) + ",";
    rows.push_back(row);
  }
  return rows;
}

}  // namespace

TEST_CASE("row feed: rows in order, NULLs, full 64-bit values, and nothing left in the schema") {
  TempDir dir;
  SqliteDatabase db((dir / "t.db").string(), SqliteDatabase::Mode::Create);
  db.exec("CREATE TABLE t (id INTEGER PRIMARY KEY, a INTEGER, b INTEGER NOT NULL)");
  const int64_t lowest = std::numeric_limits<int64_t>::min();
  {
    SqliteRowFeed feed(db, "t", 3, "t_feed");
    feed.insert(4, [&](size_t row, std::span<FeedValue> v) {
      v[0] = {static_cast<int64_t>(row) * 10};
      v[1] = row % 2 == 0 ? FeedValue{0, true} : FeedValue{lowest + static_cast<int64_t>(row)};
      v[2] = {static_cast<int64_t>(row) - 2};
    });
    feed.insert(0, [](size_t, std::span<FeedValue>) { FAIL("no rows: never asked"); });
    feed.insert(1, [](size_t row, std::span<FeedValue> v) {  // a second run of the same statement
      v[0] = {100 + static_cast<int64_t>(row)};
      v[1] = feed_value(7);
      v[2] = {std::numeric_limits<int64_t>::max()};
    });
  }
  CHECK(rows_of(db, "SELECT id, a, b FROM t ORDER BY id", 3) ==
        std::vector<std::string>{"0,-,-2,", "10," + std::to_string(lowest + 1) + ",-1,", "20,-,0,",
                                 "30," + std::to_string(lowest + 3) + ",1,", "100,7,9223372036854775807,"});
  CHECK(rows_of(db, "SELECT count(*) FROM sqlite_schema WHERE name LIKE '%feed%'", 1) ==
        std::vector<std::string>{"0,"});

  // The feed's name is free again, and a constraint error names the database.
  SqliteRowFeed again(db, "t", 3, "t_feed");
  std::string error;
  try {
    again.insert(1, [](size_t, std::span<FeedValue> v) {
      v[0] = {0};  // a key that exists
      v[1] = {1};
      v[2] = {1};
    });
  } catch (const std::exception& e) {
    error = e.what();
  }
  CHECK(error.find("t.db") != std::string::npos);
  CHECK(error.find("UNIQUE") != std::string::npos);

  error.clear();
  try {
    again.insert(3, [](size_t row, std::span<FeedValue> v) {
      if (row == 1) throw std::runtime_error("no such element");
      v[0] = {1000 + static_cast<int64_t>(row)};
    });
  } catch (const std::exception& e) {
    error = e.what();
  }
  CHECK(error.find("no such element") != std::string::npos);
}

TEST_CASE("row feed: two feeds on one connection, each into its table") {
  TempDir dir;
  SqliteDatabase db((dir / "t.db").string(), SqliteDatabase::Mode::Create);
  db.exec("CREATE TABLE x (k INTEGER NOT NULL, PRIMARY KEY (k)) WITHOUT ROWID; CREATE TABLE y (a, b)");
  SqliteRowFeed into_x(db, "x", 1, "x_feed");
  SqliteRowFeed into_y(db, "y", 2, "y_feed");
  into_x.insert(3, [](size_t row, std::span<FeedValue> v) { v[0] = {static_cast<int64_t>(row)}; });
  into_y.insert(2, [](size_t row, std::span<FeedValue> v) {
    v[0] = {static_cast<int64_t>(row)};
    v[1] = {static_cast<int64_t>(row) * 2};
  });
  CHECK(rows_of(db, "SELECT k FROM x", 1) == std::vector<std::string>{"0,", "1,", "2,"});
  CHECK(rows_of(db, "SELECT a, b FROM y", 2) == std::vector<std::string>{"0,0,", "1,2,"});
}

namespace {

// A snapshot with `per_device` events on each of devices 0 and 1, addresses by device and index.
Snapshot two_device_snapshot(size_t per_device) {
  Snapshot snapshot;
  snapshot.device_traces.resize(2);
  for (size_t device = 0; device < 2; ++device) {
    for (size_t i = 0; i < per_device; ++i) {
      TraceEvent event;
      event.set_action(Action::Alloc);
      event.addr = device * 1'000'000 + i;
      event.time_us = static_cast<int64_t>(i);
      snapshot.device_traces[device].events.push_back(event);
    }
  }
  return snapshot;
}

}  // namespace

TEST_CASE("events rows: keyed device << 40 | idx whichever device is written first") {
  // Rows after a run's first take max(id) + 1 when nothing in the table is above them; a device
  // written after a higher one must carry its keys.
  const Snapshot snapshot = two_device_snapshot(1000);
  for (const bool high_first : {false, true}) {
    CAPTURE(high_first);
    TempDir dir;
    SqliteDatabase db((dir / "e.db").string(), SqliteDatabase::Mode::Create);
    db.exec(kElementsDbTables);
    elements_db::EventContexts contexts;
    for (const int device : high_first ? std::vector<int>{1, 0} : std::vector<int>{0, 1})
      elements_db::write_events(db, snapshot, device, contexts);
    SqliteStatement rows = db.prepare("SELECT id, addr FROM events ORDER BY id");
    size_t count = 0;
    bool keys_match = true;
    while (rows.next_row()) {
      const int64_t id = rows.column_int(0);
      const int64_t device = id >> 40, idx = id & ((int64_t{1} << 40) - 1);
      keys_match = keys_match && rows.column_int(1) == device * 1'000'000 + idx;
      ++count;
    }
    CHECK(count == 2000);
    CHECK(keys_match);
  }
}
