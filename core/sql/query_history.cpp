#include "core/sql/query_history.h"

namespace snapscope {

void QueryHistory::add(const std::string& sql) {
  if (!sql.empty() && (entries_.empty() || entries_.back() != sql)) entries_.push_back(sql);
  if (entries_.size() > kMaxEntries) entries_.erase(entries_.begin());
  browsing_ = entries_.size();
}

std::optional<std::string> QueryHistory::older() {
  if (browsing_ == 0) return std::nullopt;
  return entries_[--browsing_];
}

std::optional<std::string> QueryHistory::newer() {
  if (browsing_ >= entries_.size()) return std::nullopt;
  ++browsing_;
  return browsing_ == entries_.size() ? std::string() : entries_[browsing_];
}

}  // namespace snapscope
