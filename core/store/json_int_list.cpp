#include "core/store/json_int_list.h"

#include "core/store/json_integer.h"

namespace snapscope {
namespace {

bool is_space(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }

}  // namespace

bool IntCursor::next_from_text(int64_t& value) {
  if (done_) return false;
  while (at_ != end_ && is_space(*at_)) ++at_;
  if (started_) {
    if (at_ == end_) {
      done_ = true;
      return false;
    }
    if (*at_++ != ',') return decline();
    while (at_ != end_ && is_space(*at_)) ++at_;
  }
  if (at_ == end_) {
    if (started_) return decline();  // "1,"
    done_ = true;                    // []
    return false;
  }
  started_ = true;
  if (*at_ == 'n') {
    if (end_ - at_ < 4 || std::string_view(at_, 4) != "null") return decline();
    at_ += 4;
    value = null_value_;
    return true;
  }
  const std::optional<JsonInteger> number = scan_json_integer(at_, end_);
  if (!number) return decline();
  value = number->value;
  return true;
}

size_t IntCursor::count_rest() {
  size_t count = 0;
  int64_t ignored = 0;
  while (next(ignored)) ++count;
  return count;
}

bool parse_json_int_list(std::string_view body, std::vector<int64_t>& out, int64_t null_value) {
  IntCursor cursor(body, null_value);
  int64_t value = 0;
  while (cursor.next(value)) out.push_back(value);
  return !cursor.declined();
}

}  // namespace snapscope
