// Internal to the allocations.json reader: the values of a JSON array of integers, one at a time,
// either from the array's inside as text ("1, -2,null", the fast path) or from values the full
// JSON parser already produced. The text is read strictly like the fast tokenizer: anything else
// (floats, strings, nested values, integers beyond 64 bits, stray commas) makes the cursor
// decline, and the caller falls back to the full parser, which words the error.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

#include "core/store/allocations_json/json_integer.h"

namespace snapscope {

class IntCursor {
 public:
  // null becomes `null_value`; unsigned values above INT64_MAX keep their bit pattern.
  IntCursor(std::string_view body, int64_t null_value)
      : at_(body.data()), end_(body.data() + body.size()), null_value_(null_value) {}
  explicit IntCursor(std::span<const int64_t> values) : values_(values), from_values_(true) {}

  // The next value; false at the end of the list, or when the text is not such a list
  // (declined() then tells).
  bool next(int64_t& value) {
    if (from_values_) {
      if (index_ == values_.size()) return false;
      value = values_[index_++];
      return true;
    }
    return next_from_text(value);
  }
  bool declined() const { return declined_; }
  // Values remaining (reads them, for a message that gives a column's real length).
  size_t count_rest();

 private:
  static bool is_space(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }
  void skip_space() {
    while (at_ != end_ && is_space(*at_)) ++at_;
  }
  // Inline: it runs once per value of columns of tens of millions.
  bool next_from_text(int64_t& value) {
    if (done_) return false;
    skip_space();
    if (started_) {
      if (at_ == end_) {
        done_ = true;
        return false;
      }
      if (*at_++ != ',') return decline();
      skip_space();
    }
    if (at_ == end_) {
      if (started_) return decline();  // "1,"
      done_ = true;                    // []
      return false;
    }
    started_ = true;
    if (*at_ == 'n') return null_value(value);
    const std::optional<JsonInteger> number = scan_json_integer(at_, end_);
    if (!number) return decline();
    value = number->value;
    return true;
  }
  bool null_value(int64_t& value);
  bool decline() {
    declined_ = true;
    done_ = true;
    return false;
  }

  const char* at_ = nullptr;
  const char* end_ = nullptr;
  int64_t null_value_ = 0;
  bool started_ = false, done_ = false, declined_ = false;
  std::span<const int64_t> values_;
  size_t index_ = 0;
  bool from_values_ = false;
};

}  // namespace snapscope
