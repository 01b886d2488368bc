// Location text in narrow columns: elided from the front ("...model.py:79 (forward)") so the file
// name, line and function stay visible, with the whole location in a tooltip.
#pragma once

#include <string>

namespace snapscope {

// `text` shortened from the front to fit `width` pixels in the current font ("..." + the tail).
std::string elide_front(const std::string& text, float width);

// Draws `text` elided to the rest of the line (or column); hovering shows it whole when elided.
void location_text(const std::string& text);

// After an item whose label was elided from `text`: the whole text as a tooltip on hover.
void full_text_tooltip(const std::string& text, const std::string& shown);

}  // namespace snapscope
