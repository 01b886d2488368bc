// The allocations.json reader's column parser: the inside of a JSON integer array, read into a
// column, accepting exactly what the fast tokenizer accepts and declining everything else.
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

TEST_CASE("json int list: many lists in parallel land in their own columns") {
  std::vector<std::string> bodies;
  std::vector<std::vector<int64_t>> columns(9);
  for (int i = 0; i < 9; ++i) {
    std::string body;
    for (int k = 0; k < 1000 * (i + 1); ++k) body += (k ? "," : "") + std::to_string(k * (i + 1));
    bodies.push_back(body);
  }
  std::vector<IntListJob> jobs;
  for (int i = 0; i < 9; ++i) jobs.push_back({bodies[i], &columns[i]});
  CHECK(parse_json_int_lists(jobs, kNull));
  for (int i = 0; i < 9; ++i) {
    REQUIRE(columns[i].size() == static_cast<size_t>(1000 * (i + 1)));
    CHECK(columns[i].back() == int64_t{(1000 * (i + 1) - 1) * (i + 1)});
  }
  std::vector<int64_t> bad;
  jobs.push_back({"1,x", &bad});
  CHECK_FALSE(parse_json_int_lists(jobs, kNull));
}
