// RowidTablePages: a rowid table's b-tree written by us and attached to a database SQLite built.
// SQLite must read it exactly as the same rows inserted through SQLite, find rows through its
// interior pages and pass its own integrity check.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/store/elements_db/rowid_table_pages.h"
#include "core/store/elements_db/sqlite_handle.h"
#include "core/store/elements_db/sqlite_record.h"
#include "unit/support/test_store_fixture.h"

using namespace snapscope;
using snapscope::test::TempDir;

namespace {

constexpr int kColumns = 4;  // id, a, b, c

// Every size of integer SQLite stores, both signs and the edges between them, and NULL.
const std::vector<FeedValue> kValues = [] {
  std::vector<FeedValue> values{{0, true}};
  for (const int64_t v : {int64_t{0},
                          int64_t{1},
                          int64_t{2},
                          int64_t{127},
                          int64_t{128},
                          int64_t{-128},
                          int64_t{-129},
                          int64_t{32767},
                          int64_t{32768},
                          int64_t{-32769},
                          int64_t{8388607},
                          int64_t{8388608},
                          int64_t{2147483647},
                          int64_t{2147483648},
                          int64_t{-2147483649},
                          int64_t{0x7fffffffffff},
                          int64_t{0x800000000000},
                          int64_t{-0x800000000001},
                          std::numeric_limits<int64_t>::max(),
                          std::numeric_limits<int64_t>::min()}) {
    values.push_back({v});
  }
  return values;
}();

// Row `row`'s values; the rowids grow by uneven steps, past the 1-, 2- and 3-byte varints.
void fill_row(size_t row, std::span<FeedValue> values) {
  values[0] = {static_cast<int64_t>(row * row + 3 * row + 1)};
  for (size_t c = 1; c < values.size(); ++c) values[c] = kValues[(row * c + c) % kValues.size()];
}

std::string make_database(const std::filesystem::path& path, uint32_t page_size) {
  SqliteDatabase db(path.string(), SqliteDatabase::Mode::Create);
  db.exec("PRAGMA page_size = " + std::to_string(page_size) + "; PRAGMA journal_mode = OFF;");
  db.exec("CREATE TABLE ref (id INTEGER PRIMARY KEY, a INTEGER, b INTEGER, c INTEGER);");
  db.exec("CREATE TABLE t (id INTEGER PRIMARY KEY, a INTEGER, b INTEGER, c INTEGER);");
  return path.string();
}

void insert_reference(SqliteDatabase& db, size_t rows) {
  db.exec("BEGIN");
  SqliteStatement insert = db.prepare("INSERT INTO ref VALUES (?, ?, ?, ?)");
  std::vector<FeedValue> values(kColumns);
  for (size_t row = 0; row < rows; ++row) {
    fill_row(row, values);
    for (int c = 0; c < kColumns; ++c) {
      const FeedValue& v = values[static_cast<size_t>(c)];
      if (v.null) {
        insert.bind_null(c + 1);
      } else {
        insert.bind(c + 1, v.value);
      }
    }
    insert.run();
  }
  db.exec("COMMIT");
}

uint32_t root_of(SqliteDatabase& db, const std::string& table) {
  SqliteStatement root = db.prepare("SELECT rootpage FROM sqlite_schema WHERE name = '" + table + "'");
  REQUIRE(root.next_row());
  return static_cast<uint32_t>(root.column_int(0));
}

int64_t single_int(SqliteDatabase& db, const std::string& sql) {
  SqliteStatement query = db.prepare(sql);
  REQUIRE(query.next_row());
  return query.column_int(0);
}

std::string single_text(SqliteDatabase& db, const std::string& sql) {
  SqliteStatement query = db.prepare(sql);
  REQUIRE(query.next_row());
  return query.column_text(0);
}

// `rows` rows into `t` as pages and into `ref` through SQLite, in a database of `page_size`.
std::string build(const TempDir& dir, size_t rows, uint32_t page_size) {
  const std::string path = make_database(dir / "t.db", page_size);
  RowidTablePages pages(path, "t", kColumns, page_size);
  pages.insert(rows, fill_row);
  uint32_t root = 0;
  {
    SqliteDatabase db(path, SqliteDatabase::Mode::Create);
    insert_reference(db, rows);
    root = root_of(db, "t");
  }
  RowidTablePages* const tables[] = {&pages};
  const uint32_t roots[] = {root};
  attach_rowid_tables(path, tables, roots);
  return path;
}

}  // namespace

TEST_CASE("sqlite varints: one to nine bytes, as SQLite writes them") {
  uint8_t out[sqlite_format::kMaxVarintBytes] = {};
  CHECK(sqlite_format::put_varint(0, out) == 1);
  CHECK(out[0] == 0);
  CHECK(sqlite_format::put_varint(127, out) == 1);
  CHECK(sqlite_format::put_varint(128, out) == 2);
  CHECK((out[0] == 0x81 && out[1] == 0x00));
  CHECK(sqlite_format::put_varint(0x3fff, out) == 2);
  CHECK((out[0] == 0xff && out[1] == 0x7f));
  CHECK(sqlite_format::put_varint(0x4000, out) == 3);
  CHECK(sqlite_format::put_varint((uint64_t{1} << 56) - 1, out) == 8);
  CHECK(sqlite_format::put_varint(uint64_t{1} << 56, out) == 9);
  CHECK(sqlite_format::put_varint(UINT64_MAX, out) == 9);
  for (const uint8_t byte : out) CHECK(byte == 0xff);
  for (const uint64_t v : {uint64_t{0}, uint64_t{200}, uint64_t{1} << 40, UINT64_MAX}) {
    CHECK(sqlite_format::varint_length(v) == sqlite_format::put_varint(v, out));
  }
}

TEST_CASE("rowid table pages: SQLite reads them as the same rows inserted through SQLite") {
  // 0 and 1 rows: the root stays empty or is the only leaf; then one, two and three levels
  // of interior pages above the leaves (1 KiB pages hold about 40 of these rows).
  for (const size_t rows : {size_t{0}, size_t{1}, size_t{40}, size_t{41}, size_t{3000}, size_t{60000}}) {
    CAPTURE(rows);
    TempDir dir;
    const std::string path = build(dir, rows, 1024);
    SqliteDatabase db(path, SqliteDatabase::Mode::ReadOnly);
    CHECK(single_text(db, "PRAGMA integrity_check") == "ok");
    CHECK(single_int(db, "SELECT count(*) FROM t") == static_cast<int64_t>(rows));
    // Column for column, type for type, in rowid order.
    CHECK(single_int(db,
                     "SELECT count(*) FROM t JOIN ref USING (id) WHERE t.a IS ref.a AND t.b IS ref.b AND "
                     "t.c IS ref.c AND typeof(t.a) = typeof(ref.a) AND typeof(t.c) = typeof(ref.c)") ==
          static_cast<int64_t>(rows));
    CHECK(single_text(db, "SELECT group_concat(id) FROM (SELECT id FROM t ORDER BY id)") ==
          single_text(db, "SELECT group_concat(id) FROM (SELECT id FROM ref ORDER BY id)"));
    if (rows > 0) {  // lookups through the interior pages, the last rowid included
      const size_t last = rows - 1;
      const int64_t last_id = static_cast<int64_t>(last * last + 3 * last + 1);
      CHECK(single_int(db, "SELECT max(id) FROM t") == last_id);
      CHECK(single_int(db, "SELECT count(*) FROM t WHERE id = " + std::to_string(last_id)) == 1);
      CHECK(single_int(db, "SELECT count(*) FROM t WHERE id = " + std::to_string(last_id - 1)) == 0);
      CHECK(single_int(db, "SELECT count(*) FROM t WHERE id BETWEEN 1 AND 11") ==
            std::min<int64_t>(static_cast<int64_t>(rows), 3));
    }
    // The file stays SQLite's: it takes new rows into the attached tree.
    SqliteDatabase writable(path, SqliteDatabase::Mode::Create);
    writable.exec("INSERT INTO t (a) VALUES (7); DELETE FROM t WHERE id % 5 = 0;");
    CHECK(single_text(writable, "PRAGMA integrity_check") == "ok");
  }
}

TEST_CASE("rowid table pages: a NULL rowid is the last one plus one; rows out of order are refused") {
  TempDir dir;
  RowidTablePages pages((dir / "t.db").string(), "t", 2, 1024);
  pages.insert(3, [](size_t row, std::span<FeedValue> v) {
    v[0] = row == 0 ? FeedValue{10} : FeedValue{0, true};
    v[1] = {static_cast<int64_t>(row)};
  });
  CHECK(pages.rows() == 3);
  CHECK(pages.last_rowid() == 12);
  CHECK_THROWS_WITH_AS(pages.insert(1, [](size_t, std::span<FeedValue> v) { v[0] = {12}; }),
                       "t: row 12 is not above the last one", std::logic_error);
  pages.clear();
  CHECK(pages.rows() == 0);
  pages.insert(1, [](size_t, std::span<FeedValue> v) { v[0] = {1}; });
  CHECK(pages.last_rowid() == 1);
}

TEST_CASE("rowid table pages: attaching checks the database it writes into") {
  TempDir dir;
  const std::string path = make_database(dir / "t.db", 1024);
  uint32_t ref_root = 0, t_root = 0;
  {
    SqliteDatabase db(path, SqliteDatabase::Mode::Create);
    db.exec("INSERT INTO ref VALUES (1, 2, 3, 4)");
    ref_root = root_of(db, "ref");
    t_root = root_of(db, "t");
  }
  RowidTablePages pages(path, "ref", kColumns, 1024);
  pages.insert(5, fill_row);
  RowidTablePages* const tables[] = {&pages};
  const uint32_t full_root[] = {ref_root};
  CHECK_THROWS_WITH_AS(attach_rowid_tables(path, tables, full_root), (path + ": ref is not empty").c_str(),
                       std::runtime_error);
  const uint32_t no_root[] = {999};
  CHECK_THROWS_WITH_AS(attach_rowid_tables(path, tables, no_root),
                       (path + ": ref has no root page to attach to").c_str(), std::runtime_error);
  RowidTablePages other_size(path, "t", kColumns, 4096);
  RowidTablePages* const mismatched[] = {&other_size};
  const uint32_t t_roots[] = {t_root};
  CHECK_THROWS_WITH_AS(attach_rowid_tables(path, mismatched, t_roots),
                       (path + ": t's pages do not fit the database's format").c_str(), std::runtime_error);
  std::ofstream(path, std::ios::app) << "trailing bytes";
  CHECK_THROWS_WITH_AS(attach_rowid_tables(path, tables, t_roots),
                       (path + ": its size does not match its page count").c_str(), std::runtime_error);
}
