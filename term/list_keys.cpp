#include "term/list_keys.h"

#include <curses.h>

#include <algorithm>

namespace snapscope::term {

bool step_index(int ch, size_t& index, size_t count, int page) {
  const size_t last = count == 0 ? 0 : count - 1;
  const auto rows = static_cast<size_t>(std::max(1, page));
  switch (ch) {
    case KEY_UP:
      index = index > 0 ? index - 1 : 0;
      return true;
    case KEY_DOWN:
      index = std::min(last, index + 1);
      return true;
    case KEY_PPAGE:
      index = index > rows ? index - rows : 0;
      return true;
    case KEY_NPAGE:
      index = std::min(last, index + rows);
      return true;
    case KEY_HOME:
      index = 0;
      return true;
    case KEY_END:
      index = last;
      return true;
    default:
      return false;
  }
}

}  // namespace snapscope::term
