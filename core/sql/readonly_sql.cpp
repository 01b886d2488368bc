#include "core/sql/readonly_sql.h"

#include <sqlite3.h>

#include <array>
#include <chrono>
#include <cstring>
#include <stdexcept>
#include <string_view>

#include "core/store/elements_db/sqlite_handle.h"

namespace snapscope {
namespace {

constexpr int kProgressOpcodes = 10000;  // how often a running query checks for cancel

// Pragmas that only report something, allowed with an argument (a table or index name).
constexpr std::array<std::string_view, 11> kReportingPragmas = {
    "table_info", "table_xinfo",   "index_list",      "index_info",    "index_xinfo", "foreign_key_list",
    "table_list", "database_list", "compile_options", "function_list", "pragma_list"};

bool reporting_pragma(const char* name) {
  for (std::string_view allowed : kReportingPragmas) {
    if (name != nullptr && allowed == name) return true;
  }
  return false;
}

int authorize(void*, int action, const char* arg1, const char* arg2, const char*, const char*) {
  switch (action) {
    case SQLITE_SELECT:
    case SQLITE_READ:
    case SQLITE_FUNCTION:
    case SQLITE_RECURSIVE:
      return SQLITE_OK;
    case SQLITE_PRAGMA:
      // arg2 is the pragma's value: reading a pragma is fine, setting one is not.
      return arg2 == nullptr || reporting_pragma(arg1) ? SQLITE_OK : SQLITE_DENY;
    default:
      return SQLITE_DENY;  // every write, schema change, ATTACH/DETACH, transaction control
  }
}

SqlValue column_value(sqlite3_stmt* statement, int column) {
  switch (sqlite3_column_type(statement, column)) {
    case SQLITE_INTEGER:
      return static_cast<int64_t>(sqlite3_column_int64(statement, column));
    case SQLITE_FLOAT:
      return sqlite3_column_double(statement, column);
    case SQLITE_TEXT:
      return std::string(reinterpret_cast<const char*>(sqlite3_column_text(statement, column)),
                         static_cast<size_t>(sqlite3_column_bytes(statement, column)));
    case SQLITE_BLOB:
      return "<blob " + std::to_string(sqlite3_column_bytes(statement, column)) + " bytes>";
    default:
      return std::monostate{};
  }
}

}  // namespace

ReadOnlySql::ReadOnlySql(const std::string& db_path) {
  const int flags = SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX;
  if (sqlite3_open_v2(db_path.c_str(), &db_, flags, nullptr) != SQLITE_OK) {
    const std::string message = db_ != nullptr ? sqlite3_errmsg(db_) : "out of memory";
    sqlite3_close(db_);
    db_ = nullptr;
    throw std::runtime_error(db_path + ": " + message);
  }
  sqlite3_exec(db_, "PRAGMA query_only=1", nullptr, nullptr, nullptr);
  harden_untrusted_connection(db_);  // also limits attaching to zero databases
  sqlite3_set_authorizer(db_, authorize, nullptr);
  sqlite3_progress_handler(db_, kProgressOpcodes, &ReadOnlySql::progress, this);
}

ReadOnlySql::~ReadOnlySql() { sqlite3_close(db_); }

void ReadOnlySql::interrupt() { sqlite3_interrupt(db_); }

int ReadOnlySql::progress(void* self) {
  const std::atomic<bool>* cancel = static_cast<ReadOnlySql*>(self)->cancel_;
  return cancel != nullptr && cancel->load() ? 1 : 0;
}

bool ReadOnlySql::run_statement(const char*& cursor, size_t row_cap, SqlResult& out) {
  sqlite3_stmt* statement = nullptr;
  const char* tail = nullptr;
  if (sqlite3_prepare_v2(db_, cursor, -1, &statement, &tail) != SQLITE_OK) {
    out.error = sqlite3_errmsg(db_);
    return false;
  }
  cursor = tail;
  if (statement == nullptr) return true;  // only whitespace or comments left
  const int columns = sqlite3_column_count(statement);
  SqlResult result;
  for (int c = 0; c < columns; ++c) result.columns.emplace_back(sqlite3_column_name(statement, c));
  int code = SQLITE_ROW;
  while ((code = sqlite3_step(statement)) == SQLITE_ROW) {
    if (result.rows.size() < row_cap) {
      std::vector<SqlValue>& row = result.rows.emplace_back();
      for (int c = 0; c < columns; ++c) row.push_back(column_value(statement, c));
    }
    ++result.total_rows;
  }
  if (code != SQLITE_DONE) out.error = sqlite3_errmsg(db_);
  sqlite3_finalize(statement);
  if (!out.error.empty()) return false;
  if (columns > 0) {
    out.columns = std::move(result.columns);
    out.rows = std::move(result.rows);
    out.total_rows = result.total_rows;
  }
  return true;
}

SqlResult ReadOnlySql::run(const std::string& sql, const std::atomic<bool>& cancel, size_t row_cap) {
  const auto start = std::chrono::steady_clock::now();
  cancel_ = &cancel;
  SqlResult out;
  const char* cursor = sql.c_str();
  while (*cursor != '\0' && !cancel.load()) {
    if (!run_statement(cursor, row_cap, out)) break;
  }
  cancel_ = nullptr;
  if (cancel.load()) {
    out.cancelled = true;
    out.error.clear();
  }
  out.elapsed_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  return out;
}

}  // namespace snapscope
