// What a tree view does with a CallTree besides drawing it: focus a subtree as the new root
// (and back), and incremental search with next/previous match.
#pragma once

#include <string_view>
#include <vector>

#include "core/analysis/call_tree.h"

namespace snapscope {

class CallTreeNavigator {
 public:
  CallTreeNavigator(const CallTree& tree, const StackSource& source) : tree_(tree), source_(source) {}

  uint32_t root() const { return focus_.empty() ? CallTree::kRoot : focus_.back(); }
  void focus(uint32_t node);  // that subtree becomes the shown root
  bool unfocus();             // back to the previous root; false when already at the tree root
  void reset_focus() { focus_.clear(); }

  // Nodes below root() whose function name or file name contains `query` (ASCII
  // case-insensitive), in display order: depth first, children by bytes descending.
  std::vector<uint32_t> search(std::string_view query) const;

  // Incremental search state for n / N: set_query() jumps to the first match.
  void set_query(std::string_view query);
  const std::vector<uint32_t>& matches() const { return matches_; }
  // The current match, or kNoIndex when nothing matches.
  uint32_t current_match() const { return matches_.empty() ? kNoIndex : matches_[cursor_]; }
  uint32_t next_match();      // wraps around
  uint32_t previous_match();  // wraps around

 private:
  bool matches_query(uint32_t node, std::string_view lowered_query) const;

  const CallTree& tree_;
  const StackSource& source_;
  std::vector<uint32_t> focus_;
  std::vector<uint32_t> matches_;
  size_t cursor_ = 0;
};

}  // namespace snapscope
