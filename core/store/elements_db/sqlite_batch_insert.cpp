#include "core/store/elements_db/sqlite_batch_insert.h"

#include <stdexcept>
#include <string>

namespace snapscope {
namespace {

std::string insert_sql(std::string_view table, int columns, int rows) {
  std::string row = "(";
  for (int c = 0; c < columns; ++c) row += c == 0 ? "?" : ",?";
  row += ")";
  std::string sql = "INSERT INTO " + std::string(table) + " VALUES ";
  for (int r = 0; r < rows; ++r) sql += (r == 0 ? "" : ",") + row;
  return sql;
}

}  // namespace

SqliteBatchInsert::SqliteBatchInsert(SqliteDatabase& db, std::string_view table, int columns)
    : columns_(columns),
      batch_(db.prepare(insert_sql(table, columns, kRowsPerStatement))),
      single_(db.prepare(insert_sql(table, columns, 1))) {
  cells_.reserve(static_cast<size_t>(columns) * kRowsPerStatement);
}

SqliteBatchInsert& SqliteBatchInsert::add(int64_t value) {
  cells_.push_back({Cell::Kind::Integer, value, {}});
  return *this;
}

SqliteBatchInsert& SqliteBatchInsert::add(std::optional<int64_t> value) {
  cells_.push_back(value ? Cell{Cell::Kind::Integer, *value, {}} : Cell{});
  return *this;
}

SqliteBatchInsert& SqliteBatchInsert::add_text(std::string_view text) {
  cells_.push_back({Cell::Kind::Text, 0, text});
  return *this;
}

void SqliteBatchInsert::end_row() {
  if (cells_.size() % static_cast<size_t>(columns_) != 0) {
    throw std::logic_error("SqliteBatchInsert: row with the wrong number of values");
  }
  if (cells_.size() < static_cast<size_t>(columns_) * kRowsPerStatement) return;
  bind_rows(batch_, 0, kRowsPerStatement);
  batch_.run();
  cells_.clear();
}

void SqliteBatchInsert::flush() {
  const size_t rows = cells_.size() / static_cast<size_t>(columns_);
  for (size_t row = 0; row < rows; ++row) {
    bind_rows(single_, row * static_cast<size_t>(columns_), 1);
    single_.run();
  }
  cells_.clear();
}

void SqliteBatchInsert::bind_rows(SqliteStatement& statement, size_t first_cell, size_t rows) {
  const size_t count = rows * static_cast<size_t>(columns_);
  for (size_t i = 0; i < count; ++i) {
    const Cell& cell = cells_[first_cell + i];
    const int parameter = static_cast<int>(i) + 1;
    switch (cell.kind) {
      case Cell::Kind::Integer:
        statement.bind(parameter, cell.integer);
        break;
      case Cell::Kind::Null:
        statement.bind_null(parameter);
        break;
      case Cell::Kind::Text:
        statement.bind_static_text(parameter, cell.text);
        break;
    }
  }
}

}  // namespace snapscope
