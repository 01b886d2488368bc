#include "term/text_pane.h"

#include "term/list_keys.h"

#include <algorithm>

namespace snapscope::term {

void TextPane::set_lines(std::vector<TextLine> lines) {
  lines_ = std::move(lines);
  top_ = std::min(top_, lines_.empty() ? 0 : lines_.size() - 1);
}

bool TextPane::key(int ch) { return step_index(ch, top_, lines_.size(), page_); }

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
