#include "core/util/string_table.h"

namespace snapscope {

StringTable::StringTable() { intern(""); }

StringId StringTable::intern(std::string_view text) {
  if (auto it = index_.find(text); it != index_.end()) return it->second;
  const std::string& stored = storage_.emplace_back(text);
  auto id = static_cast<StringId>(views_.size());
  views_.emplace_back(stored);
  index_.emplace(views_.back(), id);
  return id;
}

std::string_view StringTable::view(StringId id) const { return views_.at(id); }

}  // namespace snapscope
