#include "core/sql/sql_result.h"

#include <algorithm>
#include <cstdio>

namespace snapscope {
namespace {

struct TextOf {
  std::string operator()(std::monostate) const { return "NULL"; }
  std::string operator()(int64_t value) const { return std::to_string(value); }
  std::string operator()(double value) const {
    char buffer[40];
    std::snprintf(buffer, sizeof buffer, "%.15g", value);
    return buffer;
  }
  std::string operator()(const std::string& value) const { return value; }
};

int type_rank(const SqlValue& value) {
  if (std::holds_alternative<std::monostate>(value)) return 0;
  if (std::holds_alternative<std::string>(value)) return 2;
  return 1;  // integers and reals compare as numbers
}

double number(const SqlValue& value) {
  if (const auto* integer = std::get_if<int64_t>(&value)) return static_cast<double>(*integer);
  return std::get<double>(value);
}

bool less(const SqlValue& a, const SqlValue& b) {
  const int rank_a = type_rank(a), rank_b = type_rank(b);
  if (rank_a != rank_b) return rank_a < rank_b;
  if (rank_a == 0) return false;
  if (rank_a == 2) return std::get<std::string>(a) < std::get<std::string>(b);
  if (std::holds_alternative<int64_t>(a) && std::holds_alternative<int64_t>(b))
    return std::get<int64_t>(a) < std::get<int64_t>(b);  // exact for large integers
  return number(a) < number(b);
}

}  // namespace

std::string sql_value_text(const SqlValue& value) { return std::visit(TextOf{}, value); }

void sort_rows(SqlResult& result, size_t column, bool ascending) {
  std::stable_sort(result.rows.begin(), result.rows.end(), [&](const auto& a, const auto& b) {
    if (column >= a.size() || column >= b.size()) return false;
    return ascending ? less(a[column], b[column]) : less(b[column], a[column]);
  });
}

}  // namespace snapscope
