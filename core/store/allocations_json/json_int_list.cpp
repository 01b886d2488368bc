#include "core/store/allocations_json/json_int_list.h"

namespace snapscope {
bool IntCursor::null_value(int64_t& value) {
  if (end_ - at_ < 4 || std::string_view(at_, 4) != "null") return decline();
  at_ += 4;
  value = null_value_;
  return true;
}

size_t IntCursor::count_rest() {
  size_t count = 0;
  int64_t ignored = 0;
  while (next(ignored)) ++count;
  return count;
}

}  // namespace snapscope
