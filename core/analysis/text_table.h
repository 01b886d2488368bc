// Plain-text tables for the report: a header row, right-aligned columns (numbers) and a
// left-aligned last column (labels), two spaces apart.
#pragma once

#include <string>
#include <vector>

namespace snapscope {

class TextTable {
 public:
  explicit TextTable(std::vector<std::string> header);
  // Same number of cells as the header; each cell through printable() (core/util/printable.h).
  void add_row(std::vector<std::string> cells);
  std::string render() const;

 private:
  std::vector<std::string> header_;
  std::vector<std::vector<std::string>> rows_;
};

// One CSV field (RFC 4180): control characters escaped (printable()), then quoted, with quotes
// doubled, when it holds a comma or quote.
std::string csv_field(std::string_view text);

}  // namespace snapscope
