// The allocations.json reader's column parser: the inside of a JSON integer array, read one value
// at a time, accepting exactly what the fast tokenizer accepts and declining everything else.
#include <doctest/doctest.h>

#include <iterator>
#include <limits>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "core/store/allocations_json/json_int_list.h"
#include "core/store/allocations_json/json_integer.h"

using namespace snapscope;

namespace {
constexpr int64_t kNull = std::numeric_limits<int64_t>::min();

// The whole list through the cursor, appended to `out`; false when the cursor declined.
bool parse_json_int_list(std::string_view body, std::vector<int64_t>& out, int64_t null_value) {
  IntCursor cursor(body, null_value);
  int64_t value = 0;
  while (cursor.next(value)) out.push_back(value);
  return !cursor.declined();
}
}  // namespace

TEST_CASE("json int list: values, nulls, extremes and whitespace") {
  std::vector<int64_t> out{7};
  CHECK(parse_json_int_list(" 1,-2 ,\n0,null,\t-0 , 18446744073709551615,-9223372036854775808 ", out, kNull));
  CHECK(out == std::vector<int64_t>{7, 1, -2, 0, kNull, 0, -1, kNull});
  std::vector<int64_t> empty;
  CHECK(parse_json_int_list("", empty, kNull));
  CHECK(parse_json_int_list(" \n ", empty, kNull));
  CHECK(empty.empty());
}

TEST_CASE("json int list: declines what the full parser must word") {
  for (const std::string body :
       {"1,", ",1", "1,,2", "1 2", "01", "1.5", "1e3", "-", "-a", "nul", "nulls", "\"1\"", "[1", "{}", "true",
        "18446744073709551616", "-9223372036854775809"}) {
    INFO(body);
    std::vector<int64_t> out;
    CHECK_FALSE(parse_json_int_list(body, out, kNull));
  }
}

TEST_CASE("json int list: 19 and 20 digits, the edge of the unchecked digit loop") {
  std::vector<int64_t> out;
  CHECK(parse_json_int_list("9999999999999999999,10000000000000000000,-999999999999999999", out, kNull));
  CHECK(out == std::vector<int64_t>{static_cast<int64_t>(uint64_t{9999999999999999999u}),
                                    static_cast<int64_t>(uint64_t{10000000000000000000u}),
                                    -999999999999999999});
  for (const std::string body : {"99999999999999999999", "100000000000000000000", "-10000000000000000000"}) {
    INFO(body);
    std::vector<int64_t> none;
    CHECK_FALSE(parse_json_int_list(body, none, kNull));
  }
}

TEST_CASE("int cursor: one value at a time, from text or from parsed values") {
  IntCursor text(" 4, null ,-6 ", kNull);
  int64_t value = 0;
  REQUIRE(text.next(value));
  CHECK(value == 4);
  REQUIRE(text.next(value));
  CHECK(value == kNull);
  CHECK(text.count_rest() == 1);
  CHECK_FALSE(text.next(value));
  CHECK_FALSE(text.declined());

  IntCursor broken("1,2,x", kNull);
  CHECK(broken.count_rest() == 2);
  CHECK(broken.declined());

  const std::vector<int64_t> values = {7, 8};
  IntCursor parsed{std::span<const int64_t>(values)};
  REQUIRE(parsed.next(value));
  CHECK(value == 7);
  CHECK(parsed.count_rest() == 1);
  CHECK_FALSE(parsed.declined());
}

namespace {

// The JSON integer rule written out plainly (one digit at a time, an overflow check for each),
// to check the scanner (whose digit loop skips the check below 20 digits) against.
std::optional<JsonInteger> reference_scan(const std::string& text, size_t& used) {
  size_t i = 0;
  const bool negative = i < text.size() && text[i] == '-';
  if (negative) ++i;
  const size_t first = i;
  uint64_t magnitude = 0;
  while (i < text.size() && text[i] >= '0' && text[i] <= '9') {
    const auto digit = static_cast<uint64_t>(text[i] - '0');
    if (magnitude > (std::numeric_limits<uint64_t>::max() - digit) / 10) return std::nullopt;
    magnitude = magnitude * 10 + digit;
    ++i;
  }
  if (i == first || (text[first] == '0' && i - first > 1)) return std::nullopt;
  if (i < text.size() && (text[i] == '.' || text[i] == 'e' || text[i] == 'E')) return std::nullopt;
  used = i;
  if (!negative) return JsonInteger{static_cast<int64_t>(magnitude), true};
  if (magnitude > static_cast<uint64_t>(std::numeric_limits<int64_t>::max()) + 1) return std::nullopt;
  return JsonInteger{static_cast<int64_t>(0 - magnitude), false};
}

}  // namespace

TEST_CASE("json integer scanner: every length, sign and ending agrees with a plain reading") {
  std::mt19937_64 random(5);
  const std::string endings[] = {"", ",", "]", " 7", ".5", "e3", "x", "12345678,"};
  for (int trial = 0; trial < 20000; ++trial) {
    const size_t length = 1 + random() % 22;
    std::string digits;
    for (size_t k = 0; k < length; ++k) digits += static_cast<char>('0' + random() % 10);
    if (trial % 3 == 0) digits[0] = static_cast<char>('1' + random() % 9);  // no leading zero
    const std::string text = (trial % 2 ? "-" : "") + digits + endings[random() % std::size(endings)];
    INFO(text);
    size_t expected_used = 0;
    const std::optional<JsonInteger> expected = reference_scan(text, expected_used);
    const char* at = text.data();
    const std::optional<JsonInteger> actual = scan_json_integer(at, text.data() + text.size());
    REQUIRE(actual.has_value() == expected.has_value());
    if (!expected) continue;
    CHECK(actual->value == expected->value);
    CHECK(actual->is_unsigned == expected->is_unsigned);
    CHECK(static_cast<size_t>(at - text.data()) == expected_used);
  }
}
