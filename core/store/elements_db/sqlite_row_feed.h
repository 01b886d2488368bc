// Bulk INSERT of rows made in memory, as `INSERT INTO table SELECT * FROM feed`, where the feed
// is an eponymous virtual table that reads each row from a callback. SQLite then takes the
// values as they are, without a parameter bound per value: on the events table (9M rows of 9
// integers) that is about a tenth less time per row than SqliteBatchInsert's bound multi-row
// VALUES. For the tables of millions of rows; SqliteBatchInsert stays for the rest.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "core/store/elements_db/sqlite_handle.h"

namespace snapscope {

struct FeedValue {
  int64_t value = 0;
  bool null = false;
};
inline FeedValue feed_value(std::optional<int64_t> value) {
  return value ? FeedValue{*value} : FeedValue{0, true};
}

class SqliteRowFeed {
 public:
  // Fills `values` (one per column, in the table's column order) with row `row`'s.
  using Fill = std::function<void(size_t row, std::span<FeedValue> values)>;

  // `name`: the feed's module name, unique on this connection while the feed lives.
  SqliteRowFeed(SqliteDatabase& db, std::string_view table, int columns, std::string name);
  ~SqliteRowFeed();
  SqliteRowFeed(const SqliteRowFeed&) = delete;
  SqliteRowFeed& operator=(const SqliteRowFeed&) = delete;

  // Inserts rows [0, rows) in order. If `fill` throws, the insert fails with its message.
  void insert(size_t rows, const Fill& fill);

  // The virtual table's view of the feed (sqlite_row_feed.cpp).
  struct Source {
    size_t rows = 0;
    const Fill* fill = nullptr;
    int columns = 0;
  };

 private:
  static std::string register_module(SqliteDatabase& db, const std::string& name, Source* source,
                                     int columns);

  SqliteDatabase& db_;
  Source source_;  // before name_: register_module() sets it up
  std::string name_;
  std::optional<SqliteStatement> insert_;  // finalized before the module is dropped
};

}  // namespace snapscope
