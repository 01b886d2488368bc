// SqliteRowFeed: rows from a callback into a table through an eponymous virtual table.
#include <doctest/doctest.h>

#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

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
