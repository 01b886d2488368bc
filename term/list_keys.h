// The keys every list in the terminal shares: Up/Down one row, PgUp/PgDn a page, Home/End the
// ends. One place, so the tree, the moment table and the text panes move alike.
#pragma once

#include <cstddef>

namespace snapscope::term {

// Moves `index` (a row of `count`) for `ch`; false (and no move) for any other key.
bool step_index(int ch, size_t& index, size_t count, int page);

}  // namespace snapscope::term
