#include "term/text_pane.h"

#include <algorithm>

namespace snapscope::term {

void TextPane::set_lines(std::vector<TextLine> lines) {
  lines_ = std::move(lines);
  top_ = std::min(top_, lines_.empty() ? 0 : lines_.size() - 1);
}

bool TextPane::key(int ch) {
  const size_t last = lines_.empty() ? 0 : lines_.size() - 1;
  const auto page = static_cast<size_t>(page_);
  switch (ch) {
    case KEY_UP:
      top_ = top_ > 0 ? top_ - 1 : 0;
      return true;
    case KEY_DOWN:
      top_ = std::min(last, top_ + 1);
      return true;
    case KEY_PPAGE:
      top_ = top_ > page ? top_ - page : 0;
      return true;
    case KEY_NPAGE:
      top_ = std::min(last, top_ + page);
      return true;
    case KEY_HOME:
      top_ = 0;
      return true;
    case KEY_END:
      top_ = last;
      return true;
    default:
      return false;
  }
}

void TextPane::draw(const Terminal& terminal, Rect area) {
  page_ = std::max(1, area.height - 1);
  for (int i = 0; i < area.height && top_ + static_cast<size_t>(i) < lines_.size(); ++i) {
    const TextLine& line = lines_[top_ + static_cast<size_t>(i)];
    terminal.put(area.y + i, area.x, fit_cells(line.text, area.width, terminal.utf8()), area.width, line.ink);
  }
}

std::vector<TextLine> split_lines(const std::string& text, Ink ink) {
  std::vector<TextLine> lines;
  size_t start = 0;
  while (start < text.size()) {
    const size_t end = text.find('\n', start);
    lines.push_back({text.substr(start, end == std::string::npos ? std::string::npos : end - start), ink});
    if (end == std::string::npos) break;
    start = end + 1;
  }
  return lines;
}

}  // namespace snapscope::term
