// Thin RAII wrappers over the SQLite C API: a connection and a prepared statement.
// Every failure throws std::runtime_error("<db path>: <sqlite message>").
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

struct sqlite3;
struct sqlite3_stmt;

namespace snapscope {

class SqliteStatement;

// Settings for a connection to a file someone else may have crafted (SQLite's "defense against
// the dark arts"): defensive mode, untrusted schema (no functions with side effects from views),
// no extension loading, no triggers, no ATTACH. ReadOnly connections always get them.
void harden_untrusted_connection(sqlite3* db);

class SqliteDatabase {
 public:
  enum class Mode { ReadOnly, Create };
  SqliteDatabase(const std::string& path, Mode mode);
  ~SqliteDatabase();
  SqliteDatabase(const SqliteDatabase&) = delete;
  SqliteDatabase& operator=(const SqliteDatabase&) = delete;

  void exec(const std::string& sql);  // one or more statements, no results
  SqliteStatement prepare(std::string_view sql);
  const std::string& path() const { return path_; }
  sqlite3* handle() const { return db_; }
  [[noreturn]] void fail(int code) const;

 private:
  std::string path_;
  sqlite3* db_ = nullptr;
};

class SqliteStatement {
 public:
  SqliteStatement(const SqliteDatabase& db, sqlite3_stmt* stmt) : db_(&db), stmt_(stmt) {}
  ~SqliteStatement();
  SqliteStatement(SqliteStatement&& other) noexcept;
  SqliteStatement(const SqliteStatement&) = delete;
  SqliteStatement& operator=(const SqliteStatement&) = delete;
  SqliteStatement& operator=(SqliteStatement&&) = delete;

  // Parameters are 1-based, as in SQLite.
  void bind(int index, int64_t value);
  void bind(int index, std::string_view text);              // copied by SQLite
  void bind_static_text(int index, std::string_view text);  // not copied: must outlive the next run()
  void bind_null(int index);
  void bind_optional(int index, std::optional<int64_t> value);

  // Executes an INSERT/UPDATE-like statement and resets it for the next row.
  void run();
  // Steps a query; false when there are no more rows.
  bool next_row();
  int64_t column_int(int column) const;
  bool column_is_null(int column) const;
  std::string column_text(int column) const;
  void reset();

 private:
  const SqliteDatabase* db_;
  sqlite3_stmt* stmt_;
};

}  // namespace snapscope
