// The allocations.json reader's column parser: the inside of a JSON integer array, read one value
// at a time, accepting exactly what the fast tokenizer accepts and declining everything else.
#include <doctest/doctest.h>

#include <limits>
#include <string>
#include <vector>

#include "core/store/json_int_list.h"

using namespace snapscope;

namespace {
constexpr int64_t kNull = std::numeric_limits<int64_t>::min();
}

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
