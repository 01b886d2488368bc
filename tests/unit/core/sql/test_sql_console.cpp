// The SQL console's engine on a converted fixture: read-only enforcement (the file's bytes never
// change), typed results, the row cap, errors, cancel, sorting and history.
#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "core/convert/convert.h"
#include "core/sql/example_queries.h"
#include "core/sql/query_history.h"
#include "core/sql/readonly_sql.h"
#include "core/sql/sql_console.h"
#include "unit/support/generated_snapshot.h"
#include "unit/support/test_store_fixture.h"

using namespace snapscope;
using snapscope::test::TempDir;

namespace {

std::string converted_db(const TempDir& dir) {
  test::write_file(dir.path() / "s.pickle", test::pickle_bytes(test::standard_fixture()));
  test::convert_into(dir.path() / "s.pickle", dir.path() / "out");
  return (dir.path() / "out" / kElementsDbName).string();
}

SqlResult run(ReadOnlySql& sql, const std::string& text, size_t cap = ReadOnlySql::kDefaultRowCap) {
  std::atomic<bool> cancel{false};
  return sql.run(text, cancel, cap);
}

// A query that runs for minutes unless interrupted.
constexpr const char* kEndlessQuery =
    "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) SELECT count(*) FROM n";

}  // namespace

TEST_CASE("sql: no statement can change elements.db") {
  TempDir dir;
  const std::string db = converted_db(dir);
  const std::string before = test::read_file(db);
  ReadOnlySql sql(db);
  const char* writes[] = {
      "DELETE FROM events",
      "UPDATE allocations SET size = 0",
      "INSERT INTO strings VALUES (999999, 'x')",
      "DROP TABLE events",
      "CREATE TABLE t (x)",
      "ATTACH DATABASE '"
      "/tmp/snapscope-sql-attack.db"
      "' AS evil",
      "PRAGMA query_only=0",
      "PRAGMA journal_mode=DELETE",
      "PRAGMA user_version=7",
      "VACUUM",
      "VACUUM INTO '/tmp/snapscope-sql-attack.db'",
      "BEGIN; DELETE FROM events; COMMIT",
      "PRAGMA writable_schema=1",
  };
  for (const char* statement : writes) {
    INFO(statement);
    const SqlResult result = run(sql, statement);
    CHECK_FALSE(result.ok());
    CHECK_FALSE(result.error.empty());
  }
  // Still read-only after the attempts, and the file is byte for byte what it was.
  CHECK_FALSE(run(sql, "DELETE FROM events").ok());
  CHECK(run(sql, "PRAGMA query_only").rows.at(0).at(0) == SqlValue{int64_t{1}});
  CHECK(test::read_file(db) == before);
  CHECK_FALSE(std::filesystem::exists("/tmp/snapscope-sql-attack.db"));
}

TEST_CASE("sql: typed results, reporting pragmas, row cap and error messages") {
  TempDir dir;
  ReadOnlySql sql(converted_db(dir));
  const SqlResult typed = run(sql, "SELECT 42 AS i, 1.5 AS r, 'text' AS t, NULL AS n, x'00ff' AS b");
  REQUIRE(typed.ok());
  CHECK(typed.columns == std::vector<std::string>{"i", "r", "t", "n", "b"});
  REQUIRE(typed.rows.size() == 1);
  CHECK(typed.rows[0][0] == SqlValue{int64_t{42}});
  CHECK(typed.rows[0][1] == SqlValue{1.5});
  CHECK(typed.rows[0][2] == SqlValue{std::string("text")});
  CHECK(std::holds_alternative<std::monostate>(typed.rows[0][3]));
  CHECK(sql_value_text(typed.rows[0][4]) == "<blob 2 bytes>");

  const SqlResult all = run(sql, "SELECT idx FROM event_view WHERE device = 0 ORDER BY idx");
  REQUIRE(all.ok());
  REQUIRE(all.total_rows >= 5);
  const SqlResult capped = run(sql, "SELECT idx FROM event_view WHERE device = 0 ORDER BY idx", 2);
  CHECK(capped.rows.size() == 2);
  CHECK(capped.total_rows == all.total_rows);
  CHECK(capped.more_rows() == all.total_rows - 2);

  CHECK(run(sql, "PRAGMA table_info(segments)").total_rows == 13);
  const SqlResult bad = run(sql, "SELEC * FROM events");
  CHECK_FALSE(bad.ok());
  CHECK(bad.error.find("syntax error") != std::string::npos);
  CHECK(run(sql, "SELECT * FROM no_such_table").error.find("no such table") != std::string::npos);
  // Several statements: the last one with columns is shown.
  const SqlResult last = run(sql, "SELECT 1; SELECT 2 AS two; -- done");
  REQUIRE(last.ok());
  CHECK(last.columns == std::vector<std::string>{"two"});
}

TEST_CASE("sql: every example query runs") {
  TempDir dir;
  ReadOnlySql sql(converted_db(dir));
  for (const ExampleQuery& example : example_queries()) {
    INFO(example.title);
    const SqlResult result = run(sql, example.sql);
    CHECK(result.error == "");
    CHECK_FALSE(result.columns.empty());
  }
  const SqlResult alive = run(sql, example_queries()[2].sql);
  const SqlResult direct = run(sql, "SELECT count(*) FROM allocations WHERE free_event IS NULL");
  CHECK(static_cast<int64_t>(alive.total_rows) == std::get<int64_t>(direct.rows.at(0).at(0)));
}

TEST_CASE("sql: a long query is cancelled from another thread") {
  TempDir dir;
  SqlConsole console(converted_db(dir));
  REQUIRE(console.start(kEndlessQuery));
  CHECK(console.busy());
  CHECK_FALSE(console.start("SELECT 1"));  // one at a time
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  const auto asked = std::chrono::steady_clock::now();
  console.cancel();
  console.wait();
  CHECK(std::chrono::steady_clock::now() - asked < std::chrono::seconds(2));
  const auto result = console.take_result();
  REQUIRE(result.has_value());
  CHECK(result->cancelled);
  CHECK_FALSE(console.take_result().has_value());
  // The console keeps working after a cancel.
  REQUIRE(console.start("SELECT count(*) FROM events"));
  console.wait();
  const auto next = console.take_result();
  REQUIRE(next.has_value());
  CHECK(next->ok());
  CHECK(console.history().entries().size() == 2);
}

TEST_CASE("sql: sorting by a column follows SQLite's order, history browses like a shell") {
  SqlResult result;
  result.columns = {"v"};
  result.rows = {{std::string("b")}, {int64_t{10}},     {std::monostate{}}, {2.5},
                 {int64_t{-3}},      {std::string("a")}};
  sort_rows(result, 0, true);
  std::vector<std::string> order;
  for (const auto& row : result.rows) order.push_back(sql_value_text(row[0]));
  CHECK(order == std::vector<std::string>{"NULL", "-3", "2.5", "10", "a", "b"});
  sort_rows(result, 0, false);
  CHECK(sql_value_text(result.rows.front()[0]) == "b");

  QueryHistory history;
  history.add("SELECT 1");
  history.add("SELECT 2");
  history.add("SELECT 2");  // repeat of the newest: kept once
  CHECK(history.entries().size() == 2);
  CHECK(history.older() == "SELECT 2");
  CHECK(history.older() == "SELECT 1");
  CHECK_FALSE(history.older().has_value());
  CHECK(history.newer() == "SELECT 2");
  CHECK(history.newer() == "");
  CHECK_FALSE(history.newer().has_value());
}
