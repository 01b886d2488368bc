// Text read from an input (file and function names, rank summaries, rule categories) made safe
// to print: a NUL must not end a report early, and ESC, CR or a newline inside a name must not
// move a terminal's cursor or forge a line. Every C0 control character, DEL and the C1 controls
// (U+0080..U+009F in UTF-8) become a visible escape: \0, \n, \r, \t, \e, else \xNN (\u00NN for C1).
// The one escaping helper: tables, CSV fields, reports, diffs, rank tables and error lines all
// go through it.
#pragma once

#include <string>
#include <string_view>

namespace snapscope {

// Every control character escaped, newlines included: one field, one name, one line.
std::string printable(std::string_view text);

// The same, but '\n' is kept: a whole multi-line report whose names were not escaped one by one.
std::string printable_lines(std::string_view text);

}  // namespace snapscope
