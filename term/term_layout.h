// A rectangle of terminal cells.
#pragma once

namespace snapscope::term {

struct Rect {
  int y = 0, x = 0, height = 0, width = 0;
  bool contains(int row, int col) const {
    return row >= y && row < y + height && col >= x && col < x + width;
  }
};

}  // namespace snapscope::term
