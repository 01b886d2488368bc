// "What grew", by call path: two top-down call trees (run A and run B at the compared moments)
// merged by frame label, level by level. Each node holds its subtree's live bytes and allocation
// count in A and in B; a path only in B is new, only in A vanished. Sibling frames that print the
// same label are one node (their subtrees merge), so a node's delta is what a reader of the
// labels expects. Children are sorted by |delta|, largest first, then by size, then by label.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/analysis/call_tree.h"
#include "core/compare/moment_diff.h"

namespace snapscope {

struct TreeDiffNode {
  std::string label;
  uint32_t parent = kNoIndex;
  uint32_t depth = 0;  // the root ("all live memory") is 0
  uint64_t bytes_a = 0, bytes_b = 0;
  uint64_t count_a = 0, count_b = 0;
  DiffStatus status = DiffStatus::Both;
  std::vector<uint32_t> nodes_a, nodes_b;  // the CallTree nodes merged into this one
  std::vector<uint32_t> children;
  int64_t delta() const { return static_cast<int64_t>(bytes_b) - static_cast<int64_t>(bytes_a); }
};

class CallTreeDiff {
 public:
  static constexpr uint32_t kRoot = 0;
  const TreeDiffNode& node(uint32_t id) const { return nodes_[id]; }
  size_t size() const { return nodes_.size(); }
  // Labels from the root's child down to `id`, joined by " > " (a node's name in text and JSON).
  std::string path_text(uint32_t id) const;

 private:
  friend CallTreeDiff diff_call_trees(const CallTree&, const StackSource&, const CallTree&,
                                      const StackSource&);
  std::vector<TreeDiffNode> nodes_;
};

// Both trees must be top-down or both bottom-up.
CallTreeDiff diff_call_trees(const CallTree& a, const StackSource& source_a, const CallTree& b,
                             const StackSource& source_b);

// Depth first from the root, children in their sorted order: a node's children are visited when
// `open(node)` says so, and each child (with its index among its siblings) only if `shown` does.
std::vector<uint32_t> display_order(const CallTreeDiff& diff, const std::function<bool(uint32_t node)>& open,
                                    const std::function<bool(uint32_t child, size_t index)>& shown);

// One JSON object per node: path, depth, bytes_a, bytes_b, delta, count_a, count_b, status
// ("both", "new" or "vanished"), as --diff --summary json and the viewer's print-compare write them.
nlohmann::json call_tree_diff_rows_json(const CallTreeDiff& diff, std::span<const uint32_t> nodes);

// The nodes worth reading, depth first in display order: every node whose |delta| is at least
// `min_delta` bytes, down to `max_depth` levels below the root (the root is always included).
std::vector<uint32_t> significant_nodes(const CallTreeDiff& diff, uint32_t max_depth, uint64_t min_delta);

// "Delta  A  B  Call path" with the path indented by depth, for the nodes significant_nodes picks;
// chains of frames that only pass the same bytes through print their first and last frame. At
// most `top` paths (0: all), then a line saying how many more; a frame name longer than
// kMaxPathLabel characters (a C++ template) keeps its head and "...".
inline constexpr size_t kMaxPathLabel = 120;
std::string call_tree_diff_text(const CallTreeDiff& diff, uint32_t max_depth, uint64_t min_delta,
                                size_t top = 0);

}  // namespace snapscope
