// A scrollable list of text lines (categories with reasons, findings, a comparison's diff):
// Up/Down/PgUp/PgDn scroll, Home/End jump.
#pragma once

#include <string>
#include <vector>

#include "term/term_layout.h"
#include "term/terminal.h"

namespace snapscope::term {

struct TextLine {
  std::string text;
  Ink ink = Ink::Normal;
};

class TextPane {
 public:
  void set_lines(std::vector<TextLine> lines);
  void draw(const Terminal& terminal, Rect area);
  bool key(int ch);
  const std::vector<TextLine>& lines() const { return lines_; }

 private:
  std::vector<TextLine> lines_;
  size_t top_ = 0;
  int page_ = 10;
};

// "a\nb" -> lines "a", "b" in `ink`.
std::vector<TextLine> split_lines(const std::string& text, Ink ink = Ink::Normal);

}  // namespace snapscope::term
