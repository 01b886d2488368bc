// Runs user SQL against elements.db so that no query can change the file. Four independent
// locks: the connection is opened SQLITE_OPEN_READONLY, `PRAGMA query_only=1` is set, an
// authorizer denies every write, ATTACH/DETACH and pragmas that set something, and attaching
// is limited to zero databases. A query can be interrupted from another thread.
#pragma once

#include <atomic>
#include <cstddef>
#include <string>

#include "core/sql/sql_result.h"

struct sqlite3;

namespace snapscope {

class ReadOnlySql {
 public:
  static constexpr size_t kDefaultRowCap = 10000;

  explicit ReadOnlySql(const std::string& db_path);  // throws std::runtime_error
  ~ReadOnlySql();
  ReadOnlySql(const ReadOnlySql&) = delete;
  ReadOnlySql& operator=(const ReadOnlySql&) = delete;

  // Runs every statement of `sql` in order and returns the last one's result (the last that has
  // columns, so "SELECT ...; -- comment" works). Keeps `row_cap` rows, counts the others. Setting
  // `cancel` (from any thread) stops it with cancelled = true; interrupt() makes that immediate.
  SqlResult run(const std::string& sql, const std::atomic<bool>& cancel, size_t row_cap = kDefaultRowCap);
  // Thread-safe: stops the statement running now (sqlite3_interrupt).
  void interrupt();

 private:
  static int progress(void* self);
  bool run_statement(const char*& cursor, size_t row_cap, SqlResult& out);

  sqlite3* db_ = nullptr;
  const std::atomic<bool>* cancel_ = nullptr;  // the running query's flag (read on its thread)
};

}  // namespace snapscope
