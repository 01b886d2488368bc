#include "core/analysis/text_table.h"

#include <algorithm>
#include <stdexcept>

#include "core/util/printable.h"

namespace snapscope {
namespace {

void append_cell(std::string& line, const std::string& cell, size_t width, bool left_aligned) {
  const std::string padding(width - std::min(width, cell.size()), ' ');
  line += left_aligned ? cell + padding : padding + cell;
}

}  // namespace

TextTable::TextTable(std::vector<std::string> header) : header_(std::move(header)) {
  for (std::string& cell : header_) cell = printable(cell);
}

void TextTable::add_row(std::vector<std::string> cells) {
  if (cells.size() != header_.size()) throw std::invalid_argument("TextTable: row width differs from header");
  for (std::string& cell : cells) cell = printable(cell);  // a name's NUL or ESC is shown, not obeyed
  rows_.push_back(std::move(cells));
}

std::string TextTable::render() const {
  std::vector<size_t> widths(header_.size());
  for (size_t column = 0; column < header_.size(); ++column) {
    widths[column] = header_[column].size();
    for (const auto& row : rows_) widths[column] = std::max(widths[column], row[column].size());
  }
  std::string text;
  auto render_row = [&](const std::vector<std::string>& cells) {
    std::string line;
    for (size_t column = 0; column < cells.size(); ++column) {
      const bool last = column + 1 == cells.size();
      if (column > 0) line += "  ";
      // The label column is not padded: trailing blanks would only add noise.
      append_cell(line, cells[column], last ? 0 : widths[column], last);
    }
    text += line + '\n';
  };
  render_row(header_);
  for (const auto& row : rows_) render_row(row);
  return text;
}

std::string csv_field(std::string_view raw) {
  const std::string text = printable(raw);  // control characters escaped: one field, one line
  if (text.find_first_of(",\"") == std::string_view::npos) return text;
  std::string quoted = "\"";
  for (char c : text) {
    if (c == '"') quoted += '"';
    quoted += c;
  }
  return quoted + '"';
}

}  // namespace snapscope
