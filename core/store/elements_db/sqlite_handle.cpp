#include "core/store/elements_db/sqlite_handle.h"

#include <sqlite3.h>

#include <stdexcept>

#include "core/util/regular_file.h"

namespace snapscope {

SqliteDatabase::SqliteDatabase(const std::string& path, Mode mode) : path_(path) {
  const int flags =
      mode == Mode::ReadOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
  if (mode == Mode::ReadOnly) {
    const std::string problem = regular_file_problem(path);  // a planted FIFO must not hang the open
    if (!problem.empty()) throw std::runtime_error(path_ + ": " + problem);
  }
  const int code = sqlite3_open_v2(path.c_str(), &db_, flags | SQLITE_OPEN_NOMUTEX, nullptr);
  if (code != SQLITE_OK) {
    // The handle is allocated even on failure and carries the message.
    const std::string message = db_ ? sqlite3_errmsg(db_) : sqlite3_errstr(code);
    sqlite3_close(db_);
    db_ = nullptr;
    throw std::runtime_error(path_ + ": " + message);
  }
  if (mode == Mode::ReadOnly) harden_untrusted_connection(db_);
}

void harden_untrusted_connection(sqlite3* db) {
  sqlite3_db_config(db, SQLITE_DBCONFIG_DEFENSIVE, 1, nullptr);
  sqlite3_db_config(db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, nullptr);
  sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 0, nullptr);
  sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_TRIGGER, 0, nullptr);
  sqlite3_limit(db, SQLITE_LIMIT_ATTACHED, 0);
  sqlite3_exec(db, "PRAGMA cell_size_check = ON", nullptr, nullptr, nullptr);  // damaged pages fail early
}

SqliteDatabase::~SqliteDatabase() { sqlite3_close(db_); }

void SqliteDatabase::fail(int code) const {
  const char* message = db_ ? sqlite3_errmsg(db_) : sqlite3_errstr(code);
  throw std::runtime_error(path_ + ": " + message);
}

void SqliteDatabase::exec(const std::string& sql) {
  const int code = sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, nullptr);
  if (code != SQLITE_OK) fail(code);
}

SqliteStatement SqliteDatabase::prepare(std::string_view sql) {
  sqlite3_stmt* stmt = nullptr;
  const int code = sqlite3_prepare_v3(db_, sql.data(), static_cast<int>(sql.size()),
                                      SQLITE_PREPARE_PERSISTENT, &stmt, nullptr);
  if (code != SQLITE_OK) fail(code);
  return SqliteStatement(*this, stmt);
}

SqliteStatement::~SqliteStatement() { sqlite3_finalize(stmt_); }

SqliteStatement::SqliteStatement(SqliteStatement&& other) noexcept : db_(other.db_), stmt_(other.stmt_) {
  other.stmt_ = nullptr;
}

void SqliteStatement::bind(int index, int64_t value) {
  const int code = sqlite3_bind_int64(stmt_, index, value);
  if (code != SQLITE_OK) db_->fail(code);
}

void SqliteStatement::bind(int index, std::string_view text) {
  const char* data = text.data() ? text.data() : "";  // see bind_static_text
  const int code = sqlite3_bind_text64(stmt_, index, data, text.size(), SQLITE_TRANSIENT, SQLITE_UTF8);
  if (code != SQLITE_OK) db_->fail(code);
}

void SqliteStatement::bind_static_text(int index, std::string_view text) {
  // A null data pointer would bind NULL; an empty string must stay ''.
  const char* data = text.data() ? text.data() : "";
  const int code = sqlite3_bind_text64(stmt_, index, data, text.size(), SQLITE_STATIC, SQLITE_UTF8);
  if (code != SQLITE_OK) db_->fail(code);
}

void SqliteStatement::bind_null(int index) {
  const int code = sqlite3_bind_null(stmt_, index);
  if (code != SQLITE_OK) db_->fail(code);
}

void SqliteStatement::bind_optional(int index, std::optional<int64_t> value) {
  if (value) {
    bind(index, *value);
  } else {
    bind_null(index);
  }
}

void SqliteStatement::run() {
  const int code = sqlite3_step(stmt_);
  if (code != SQLITE_DONE) {
    sqlite3_reset(stmt_);
    db_->fail(code);
  }
  sqlite3_reset(stmt_);
}

bool SqliteStatement::next_row() {
  const int code = sqlite3_step(stmt_);
  if (code == SQLITE_ROW) return true;
  if (code == SQLITE_DONE) return false;
  db_->fail(code);
}

int64_t SqliteStatement::column_int(int column) const { return sqlite3_column_int64(stmt_, column); }

bool SqliteStatement::column_is_null(int column) const {
  return sqlite3_column_type(stmt_, column) == SQLITE_NULL;
}

std::string SqliteStatement::column_text(int column) const {
  const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(stmt_, column));
  const int bytes = sqlite3_column_bytes(stmt_, column);
  return text ? std::string(text, static_cast<size_t>(bytes)) : std::string();
}

void SqliteStatement::reset() { sqlite3_reset(stmt_); }

}  // namespace snapscope
