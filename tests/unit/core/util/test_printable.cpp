// printable(): the one escaping helper for names in text output.
#include <doctest/doctest.h>

#include <string>

#include "core/analysis/text_table.h"
#include "core/util/printable.h"

using namespace snapscope;

TEST_CASE("printable: control characters become visible escapes, other text is unchanged") {
  using namespace std::string_literals;
  CHECK(printable("train.py") == "train.py");
  CHECK(printable("caf\xc3\xa9") == "caf\xc3\xa9");  // UTF-8 kept
  CHECK(printable("a\0b"s) == "a\\0b");
  CHECK(printable("\x1b[2Jx") == "\\e[2Jx");
  CHECK(printable("a\r\nb\tc\x7f") == "a\\r\\nb\\tc\\x7f");
  CHECK(printable("\x01") == "\\x01");
  CHECK(printable("c1 \xc2\x9b") == "c1 \\u009b");
  CHECK(printable_lines("one\ntwo\0\n"s) == "one\ntwo\\0\n");
}

TEST_CASE("printable: table cells and CSV fields are escaped, so a NUL cannot end the text") {
  using namespace std::string_literals;
  TextTable table({"bytes", "location"});
  table.add_row({"1", "f\0.py:3\nforged"s});
  CHECK(table.render() == "bytes  location\n    1  f\\0.py:3\\nforged\n");
  CHECK(csv_field("two\nlines") == "two\\nlines");
  CHECK(csv_field("a\0,b"s) == "\"a\\0,b\"");
}
