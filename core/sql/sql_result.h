// A query's result as the SQL console shows it: typed cells, a row cap with the count of rows
// past it, and how the query ended (finished, failed with SQLite's message, or cancelled).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <variant>
#include <vector>

namespace snapscope {

// NULL, INTEGER, REAL, TEXT; a BLOB is kept as its text "<blob N bytes>".
using SqlValue = std::variant<std::monostate, int64_t, double, std::string>;
std::string sql_value_text(const SqlValue& value);

struct SqlResult {
  std::vector<std::string> columns;
  std::vector<std::vector<SqlValue>> rows;  // at most the row cap
  size_t total_rows = 0;                    // rows the query produced, including those past the cap
  std::string error;                        // empty on success
  bool cancelled = false;
  double elapsed_ms = 0;

  bool ok() const { return error.empty() && !cancelled; }
  size_t more_rows() const { return total_rows - rows.size(); }
};

// Orders rows by one column as SQLite's ORDER BY does: NULL < numbers < text. Stable.
void sort_rows(SqlResult& result, size_t column, bool ascending);

}  // namespace snapscope
