#include "core/store/elements_db/sqlite_row_feed.h"

#include <sqlite3.h>

#include <exception>
#include <new>
#include <vector>

namespace snapscope {
namespace {

using Source = SqliteRowFeed::Source;

struct FeedTable {
  sqlite3_vtab base{};
  Source* source = nullptr;
};

struct FeedCursor {
  sqlite3_vtab_cursor base{};
  Source* source = nullptr;
  size_t row = 0;
  std::vector<FeedValue> values;

  // SQLITE_ERROR, with the message on the table, if the fill throws after all: an exception
  // must not unwind through SQLite.
  int load() {
    if (row >= source->rows) return SQLITE_OK;
    try {
      (*source->fill)(row, values);
      return SQLITE_OK;
    } catch (const std::exception& error) {
      sqlite3_free(base.pVtab->zErrMsg);
      base.pVtab->zErrMsg = sqlite3_mprintf("%s", error.what());
      return SQLITE_ERROR;
    }
  }
};

std::string declaration(int columns) {
  std::string sql = "CREATE TABLE x(";
  for (int c = 0; c < columns; ++c) sql += (c == 0 ? "c" : ", c") + std::to_string(c);
  return sql + ")";
}

int feed_connect(sqlite3* db, void* aux, int, const char* const*, sqlite3_vtab** out, char** error) {
  auto* source = static_cast<Source*>(aux);
  const int code = sqlite3_declare_vtab(db, declaration(source->columns).c_str());
  if (code != SQLITE_OK) {
    *error = sqlite3_mprintf("%s", sqlite3_errmsg(db));
    return code;
  }
  auto* table = new (std::nothrow) FeedTable;
  if (!table) return SQLITE_NOMEM;
  table->source = source;
  *out = &table->base;
  return SQLITE_OK;
}

int feed_disconnect(sqlite3_vtab* table) {
  delete reinterpret_cast<FeedTable*>(table);
  return SQLITE_OK;
}

int feed_best_index(sqlite3_vtab*, sqlite3_index_info* info) {
  info->estimatedCost = 1e9;  // one full scan, the only plan
  return SQLITE_OK;
}

int feed_open(sqlite3_vtab* table, sqlite3_vtab_cursor** out) {
  auto* cursor = new (std::nothrow) FeedCursor;
  if (!cursor) return SQLITE_NOMEM;
  cursor->source = reinterpret_cast<FeedTable*>(table)->source;
  cursor->values.resize(static_cast<size_t>(cursor->source->columns));
  *out = &cursor->base;
  return SQLITE_OK;
}

int feed_close(sqlite3_vtab_cursor* cursor) {
  delete reinterpret_cast<FeedCursor*>(cursor);
  return SQLITE_OK;
}

int feed_filter(sqlite3_vtab_cursor* base, int, const char*, int, sqlite3_value**) {
  auto* cursor = reinterpret_cast<FeedCursor*>(base);
  cursor->row = 0;
  return cursor->load();
}

int feed_next(sqlite3_vtab_cursor* base) {
  auto* cursor = reinterpret_cast<FeedCursor*>(base);
  ++cursor->row;
  return cursor->load();
}

int feed_eof(sqlite3_vtab_cursor* base) {
  const auto* cursor = reinterpret_cast<FeedCursor*>(base);
  return cursor->row >= cursor->source->rows;
}

int feed_column(sqlite3_vtab_cursor* base, sqlite3_context* context, int column) {
  const FeedValue& value = reinterpret_cast<FeedCursor*>(base)->values[static_cast<size_t>(column)];
  if (value.null) {
    sqlite3_result_null(context);
  } else {
    sqlite3_result_int64(context, value.value);
  }
  return SQLITE_OK;
}

int feed_rowid(sqlite3_vtab_cursor* base, sqlite3_int64* rowid) {
  *rowid = static_cast<sqlite3_int64>(reinterpret_cast<FeedCursor*>(base)->row);
  return SQLITE_OK;
}

// No xCreate: an eponymous-only table, used by its module's name and never in the schema.
sqlite3_module feed_module() {
  sqlite3_module module{};
  module.xConnect = feed_connect;
  module.xBestIndex = feed_best_index;
  module.xDisconnect = feed_disconnect;
  module.xDestroy = feed_disconnect;
  module.xOpen = feed_open;
  module.xClose = feed_close;
  module.xFilter = feed_filter;
  module.xNext = feed_next;
  module.xEof = feed_eof;
  module.xColumn = feed_column;
  module.xRowid = feed_rowid;
  return module;
}
const sqlite3_module kFeedModule = feed_module();

}  // namespace

std::string SqliteRowFeed::register_module(SqliteDatabase& db, const std::string& name, Source* source,
                                           int columns) {
  source->columns = columns;
  const int code = sqlite3_create_module_v2(db.handle(), name.c_str(), &kFeedModule, source, nullptr);
  if (code != SQLITE_OK) db.fail(code);
  return name;
}

SqliteRowFeed::SqliteRowFeed(SqliteDatabase& db, std::string_view table, int columns, std::string name)
    : db_(db),
      name_(register_module(db, name, &source_, columns)),
      insert_(db.prepare("INSERT INTO " + std::string(table) + " SELECT * FROM " + name_)) {}

SqliteRowFeed::~SqliteRowFeed() {
  insert_.reset();
  sqlite3_create_module_v2(db_.handle(), name_.c_str(), nullptr, nullptr, nullptr);
}

void SqliteRowFeed::insert(size_t rows, const Fill& fill) {
  if (rows == 0) return;
  source_.rows = rows;
  source_.fill = &fill;
  insert_->run();
  source_.fill = nullptr;
}

}  // namespace snapscope
