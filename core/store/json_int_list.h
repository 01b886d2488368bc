// Internal to the allocations.json reader: the inside of a JSON array of integers ("1, -2,null"),
// parsed straight into a column. Strict like the fast tokenizer: anything else (floats, strings,
// nested values, integers beyond 64 bits, stray commas) is declined, and the caller falls back
// to the full parser, which words the error.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

namespace snapscope {

// Appends the values to `out`; null becomes `null_value`, unsigned values above INT64_MAX keep
// their bit pattern. False on anything that is not such a list.
bool parse_json_int_list(std::string_view body, std::vector<int64_t>& out, int64_t null_value);

struct IntListJob {
  std::string_view body;
  std::vector<int64_t>* out = nullptr;
};

// All jobs, spread over the machine's cores (the columns of a large file are independent).
// False if any job declined.
bool parse_json_int_lists(std::span<const IntListJob> jobs, int64_t null_value);

}  // namespace snapscope
