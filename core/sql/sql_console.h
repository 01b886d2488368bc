// The SQL console's engine: runs one query at a time on a worker thread against a read-only
// elements.db, cancellable, and keeps the history of queries run.
#pragma once

#include <atomic>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "core/sql/query_history.h"
#include "core/sql/readonly_sql.h"

namespace snapscope {

class SqlConsole {
 public:
  explicit SqlConsole(const std::string& db_path);  // throws std::runtime_error
  ~SqlConsole();
  SqlConsole(const SqlConsole&) = delete;
  SqlConsole& operator=(const SqlConsole&) = delete;

  // Starts `sql` (recorded in the history); false while another query runs.
  bool start(const std::string& sql, size_t row_cap = ReadOnlySql::kDefaultRowCap);
  bool busy() const { return running_.load(); }
  void cancel();
  // The finished query's result, once.
  std::optional<SqlResult> take_result();
  // Blocks until the running query (if any) ends.
  void wait();

  QueryHistory& history() { return history_; }

 private:
  void join();

  ReadOnlySql sql_;
  QueryHistory history_;
  std::thread worker_;
  std::atomic<bool> running_{false};
  std::shared_ptr<std::atomic<bool>> cancel_;  // the running query's flag
  std::mutex mutex_;
  std::optional<SqlResult> result_;  // guarded by mutex_
};

}  // namespace snapscope
