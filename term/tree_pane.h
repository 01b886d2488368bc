// The live call tree at the cursor (top-down or bottom-up) as an outline, keys as ptmem's:
// Up/Down move, Enter expands or collapses, Right/Left go to the first child or the parent,
// '[' / ']' the previous or next sibling, 'e' expands everything below, 'c' collapses all, 'f'
// focuses the row's subtree and 'q' goes back. Rows are coloured by their share of the live bytes.
// Expansion is kept by path, so a new cursor position keeps what was open.
#pragma once

#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/analysis/call_tree.h"
#include "core/analysis/call_tree_navigator.h"
#include "term/term_layout.h"
#include "term/terminal.h"

namespace snapscope::term {

class TreePane {
 public:
  // A new tree (the cursor moved, or the analysis landed); null: nothing to show yet.
  void set_tree(const CallTree* tree, const StackSource* source);
  void draw(const Terminal& terminal, Rect area);
  bool key(int ch);  // true when the pane used the key
  // The selected row's label (empty when there is none), for the status line and tests.
  std::string selected_label() const;

 private:
  struct Row {
    uint32_t node = 0;
    int depth = 0;
  };
  // The labels from the root to `node`, each ended by '\x1f': what expansion, focus and the
  // selection are kept by across trees.
  const std::string& path_key(uint32_t node) const;
  std::optional<uint32_t> find_by_key(const std::string& key) const;  // in this tree, if it has it
  bool expanded(uint32_t node) const;
  void set_expanded(uint32_t node, bool open);
  void rebuild_rows();
  void select_node(uint32_t node);
  void expand_below(uint32_t node, int levels);
  uint32_t selected_node() const { return rows_.empty() ? CallTree::kRoot : rows_[selected_].node; }

  const CallTree* tree_ = nullptr;
  const StackSource* source_ = nullptr;
  std::unique_ptr<CallTreeNavigator> navigator_;
  mutable std::vector<std::string> keys_;  // path_key per node of tree_, built on first use
  std::vector<std::string> focus_keys_;    // focused subtrees, re-found by path on a new tree
  std::set<std::string> expanded_;
  bool opened_once_ = false;  // the first tree opens along its largest path
  std::vector<Row> rows_;
  size_t selected_ = 0, top_ = 0;
  std::string selected_key_;
  int page_ = 10;
};

}  // namespace snapscope::term
