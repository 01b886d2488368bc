// Interned strings: equal strings get equal ids (StringId), stored once in one arena. Shared by
// the unpickler, which interns every string it reads, and the snapshot model built from them.
#pragma once

#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace snapscope {

using StringId = uint32_t;  // 0 is always the empty string

// Interns strings: equal strings get equal ids. Storage is one arena, so ids stay valid.
// Move-only: the views point into its own storage (a deque keeps them valid across moves).
class StringTable {
 public:
  StringTable();
  StringTable(const StringTable&) = delete;
  StringTable& operator=(const StringTable&) = delete;
  StringTable(StringTable&&) = default;
  StringTable& operator=(StringTable&&) = default;
  StringId intern(std::string_view text);
  std::string_view view(StringId id) const;
  size_t size() const { return views_.size(); }

 private:
  std::deque<std::string> storage_;  // deque: element addresses stay stable for the views below
  std::vector<std::string_view> views_;
  std::unordered_map<std::string_view, StringId> index_;
};

}  // namespace snapscope
