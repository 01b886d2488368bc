// Location text in narrow columns, one rule everywhere: "file.py:line (function)" stays whole and
// the directory is elided from the left (".../models/model.py:79 (forward)"), with the whole
// location in a tooltip; what has no directory (a C++ name) is cut at the right.
#pragma once

#include <string>

namespace snapscope {

// `text` shortened to fit `width` pixels in the current font, by the rule above.
std::string elide_location(const std::string& text, float width);
// `text` cut at the right to fit `width` pixels ("name..."); empty when not even "..." fits.
std::string elide_back(const std::string& text, float width);

// Draws `text` elided to the rest of the line (or column); hovering shows it whole when elided.
void location_text(const std::string& text);

// After an item whose label was elided from `text`: the whole text as a tooltip on hover.
void full_text_tooltip(const std::string& text, const std::string& shown);

}  // namespace snapscope
