// Queries run in the SQL console, newest last, browsed with up/down like a shell history.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace snapscope {

class QueryHistory {
 public:
  static constexpr size_t kMaxEntries = 200;

  // Adds a query (not a repeat of the newest one) and ends any browsing.
  void add(const std::string& sql);
  // One step older / newer than the entry being browsed; nullopt past either end (newer past
  // the newest returns "" once: back to an empty input).
  std::optional<std::string> older();
  std::optional<std::string> newer();
  const std::vector<std::string>& entries() const { return entries_; }

 private:
  std::vector<std::string> entries_;
  size_t browsing_ = 0;  // == entries_.size() when not browsing
};

}  // namespace snapscope
