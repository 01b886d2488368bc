// Bulk INSERT of many rows: rows are collected and inserted 32 at a time with one
// multi-row statement, which roughly halves SQLite's per-row cost compared with one
// statement execution per row. Text values are bound without copying, so they must stay
// valid until the batch holding them is inserted (at the latest by flush()).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "core/store/elements_db/sqlite_handle.h"

namespace snapscope {

class SqliteBatchInsert {
 public:
  static constexpr int kRowsPerStatement = 32;

  SqliteBatchInsert(SqliteDatabase& db, std::string_view table, int columns);

  // Values of one row in column order, then end_row().
  SqliteBatchInsert& add(int64_t value);
  SqliteBatchInsert& add(uint64_t value) { return add(static_cast<int64_t>(value)); }  // wraps above 2^63
  SqliteBatchInsert& add(uint32_t value) { return add(int64_t{value}); }
  SqliteBatchInsert& add(int value) { return add(int64_t{value}); }
  SqliteBatchInsert& add(std::optional<int64_t> value);  // nullopt -> NULL
  SqliteBatchInsert& add_text(std::string_view text);
  void end_row();
  void flush();  // inserts the rows of an incomplete batch; call once after the last row

 private:
  struct Cell {
    enum class Kind : uint8_t { Integer, Null, Text } kind = Kind::Null;
    int64_t integer = 0;
    std::string_view text;
  };
  void bind_rows(SqliteStatement& statement, size_t first_cell, size_t rows);

  int columns_;
  SqliteStatement batch_;
  SqliteStatement single_;
  std::vector<Cell> cells_;  // the current batch's rows, row-major
};

}  // namespace snapscope
