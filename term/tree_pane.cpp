#include "term/tree_pane.h"

#include <curses.h>

#include <algorithm>

#include "core/util/format.h"
#include "term/list_keys.h"

namespace snapscope::term {
namespace {

constexpr int kOpenLevels = 4;             // the first tree opens this deep along its largest path
constexpr size_t kExpandAllNodes = 20000;  // 'e' stops opening past this many rows

Ink heat(double share) {
  if (share >= 0.5) return Ink::Hot;
  if (share >= 0.2) return Ink::Warm;
  if (share >= 0.05) return Ink::Mild;
  return Ink::Normal;
}

}  // namespace

const std::string& TreePane::path_key(uint32_t node) const {
  // Built once per node of this tree, from its parent's: rows are keyed on every key press.
  std::string& key = keys_[node];
  if (key.empty()) {
    const std::string parent = node == CallTree::kRoot ? std::string() : path_key(tree_->node(node).parent);
    key = parent + tree_->label(node, *source_) + '\x1f';
  }
  return key;
}

std::optional<uint32_t> TreePane::find_by_key(const std::string& key) const {
  uint32_t node = CallTree::kRoot;
  if (!key.starts_with(path_key(node))) return std::nullopt;
  while (path_key(node).size() < key.size()) {  // down the children whose key starts `key`
    const auto& children = tree_->node(node).children;
    const auto next = std::find_if(children.begin(), children.end(),
                                   [&](uint32_t child) { return key.starts_with(path_key(child)); });
    if (next == children.end()) return std::nullopt;
    node = *next;
  }
  return path_key(node) == key ? std::optional(node) : std::nullopt;
}

bool TreePane::expanded(uint32_t node) const {
  return node == navigator_->root() || expanded_.contains(path_key(node));
}

void TreePane::set_expanded(uint32_t node, bool open) {
  if (open) {
    expanded_.insert(path_key(node));
  } else {
    expanded_.erase(path_key(node));
  }
}

void TreePane::set_tree(const CallTree* tree, const StackSource* source) {
  if (tree == tree_) return;
  tree_ = tree;
  source_ = source;
  rows_.clear();
  navigator_.reset();
  if (tree_ == nullptr || source_ == nullptr) return;
  navigator_ = std::make_unique<CallTreeNavigator>(*tree_, *source_);
  keys_.assign(tree_->size(), std::string());
  // Focus again on the same paths, where this tree has them.
  for (const std::string& key : focus_keys_) {
    if (const auto node = find_by_key(key)) navigator_->focus(*node);
  }
  if (!opened_once_) {
    opened_once_ = true;
    uint32_t node = CallTree::kRoot;
    for (int level = 0; level < kOpenLevels && !tree_->node(node).children.empty(); ++level) {
      set_expanded(node, true);
      node = tree_->node(node).children.front();
    }
  }
  rebuild_rows();
  selected_ = 0;
  for (size_t i = 0; i < rows_.size(); ++i) {
    if (path_key(rows_[i].node) == selected_key_) selected_ = i;
  }
}

void TreePane::rebuild_rows() {
  rows_.clear();
  if (tree_ == nullptr) return;
  const uint32_t root = navigator_->root();
  std::vector<Row> stack{{root, 0}};
  while (!stack.empty()) {
    const Row row = stack.back();
    stack.pop_back();
    rows_.push_back(row);
    if (!expanded(row.node)) continue;
    const auto& children = tree_->node(row.node).children;
    for (auto child = children.rbegin(); child != children.rend(); ++child)
      stack.push_back({*child, row.depth + 1});
  }
  selected_ = std::min(selected_, rows_.empty() ? 0 : rows_.size() - 1);
}

void TreePane::select_node(uint32_t node) {
  for (size_t i = 0; i < rows_.size(); ++i) {
    if (rows_[i].node == node) selected_ = i;
  }
}

void TreePane::expand_below(uint32_t node, int levels) {
  std::vector<std::pair<uint32_t, int>> stack{{node, 0}};
  size_t opened = 0;
  while (!stack.empty() && opened < kExpandAllNodes) {
    const auto [at, depth] = stack.back();
    stack.pop_back();
    if (tree_->node(at).children.empty() || depth >= levels) continue;
    set_expanded(at, true);
    ++opened;
    for (uint32_t child : tree_->node(at).children) stack.emplace_back(child, depth + 1);
  }
}

bool TreePane::key(int ch) {
  if (tree_ == nullptr || rows_.empty()) return false;
  const uint32_t node = selected_node();
  const CallTreeNode& at = tree_->node(node);
  if (step_index(ch, selected_, rows_.size(), page_)) {
    selected_key_ = path_key(selected_node());
    return true;
  }
  switch (ch) {
    case '\n':
    case KEY_ENTER:
      if (!at.children.empty()) set_expanded(node, !expanded(node));
      break;
    case KEY_RIGHT:
      if (!at.children.empty() && !expanded(node)) {
        set_expanded(node, true);
      } else if (!at.children.empty()) {
        rebuild_rows();
        select_node(at.children.front());
      }
      break;
    case KEY_LEFT:
      if (!at.children.empty() && expanded(node) && node != navigator_->root()) {
        set_expanded(node, false);
      } else if (node != navigator_->root()) {
        select_node(at.parent);
      }
      break;
    case '[':
    case ']': {
      if (node == navigator_->root()) break;
      const auto& siblings = tree_->node(at.parent).children;
      const auto it = std::find(siblings.begin(), siblings.end(), node);
      if (ch == '[' && it != siblings.begin()) select_node(*(it - 1));
      if (ch == ']' && it + 1 != siblings.end()) select_node(*(it + 1));
      break;
    }
    case 'e':
      expand_below(node, 64);
      break;
    case 'c':
      expanded_.clear();
      select_node(navigator_->root());
      selected_ = 0;
      break;
    case 'f':
      navigator_->focus(node);
      focus_keys_.push_back(path_key(node));
      selected_ = 0;
      break;
    case 'q':
      if (!navigator_->unfocus()) return false;  // nothing focused: 'q' is the app's
      focus_keys_.pop_back();
      break;
    default:
      return false;
  }
  rebuild_rows();
  selected_key_ = path_key(selected_node());
  return true;
}

std::string TreePane::selected_label() const {
  return tree_ == nullptr || rows_.empty() ? std::string() : tree_->label(selected_node(), *source_);
}

void TreePane::draw(const Terminal& terminal, Rect area) {
  if (tree_ == nullptr) {
    terminal.put(area.y, area.x, "computing the call tree at the cursor...", area.width, Ink::Dim);
    return;
  }
  page_ = std::max(1, area.height - 2);
  const int bytes_cells = 11, share_cells = 8, count_cells = 9;
  const int label_cells = std::max(8, area.width - bytes_cells - share_cells - count_cells - 1);
  std::string header = fit_cells("Call path", label_cells, terminal.utf8());
  header.resize(static_cast<size_t>(label_cells) + header.size() - static_cast<size_t>(cell_width(header)),
                ' ');
  terminal.put(area.y, area.x, header, label_cells, Ink::Dim, A_UNDERLINE);
  terminal.put(area.y, area.x + label_cells, "      Bytes  % live     Count", area.width - label_cells,
               Ink::Dim, A_UNDERLINE);
  const int shown = area.height - 1;
  if (selected_ < top_) top_ = selected_;
  if (selected_ >= top_ + static_cast<size_t>(shown)) top_ = selected_ + 1 - static_cast<size_t>(shown);
  for (int i = 0; i < shown && top_ + static_cast<size_t>(i) < rows_.size(); ++i) {
    const size_t index = top_ + static_cast<size_t>(i);
    const Row& row = rows_[index];
    const CallTreeNode& node = tree_->node(row.node);
    const char* marker = node.children.empty() ? "  "
                         : expanded(row.node)  ? terminal.glyph("\u25be ", "- ")
                                               : terminal.glyph("\u25b8 ", "+ ");
    const int indent = std::min(row.depth * 2, label_cells / 2);
    const std::string label =
        std::string(static_cast<size_t>(indent), ' ') + marker +
        fit_cells_left(tree_->label(row.node, *source_), label_cells - indent - 2, terminal.utf8());
    const attr_t selected = index == selected_ ? A_REVERSE : A_NORMAL;
    const int y = area.y + 1 + i;
    terminal.fill(y, area.x, area.width, Ink::Normal, selected);
    terminal.put(y, area.x, label, label_cells, Ink::Normal, selected);
    char numbers[64];
    std::snprintf(numbers, sizeof numbers, "%11s %6.2f%% %9s",
                  format_bytes(static_cast<double>(node.bytes)).c_str(), tree_->percent_of_total(row.node),
                  format_grouped(node.count).c_str());
    terminal.put(y, area.x + label_cells, numbers, area.width - label_cells,
                 heat(tree_->percent_of_total(row.node) / 100), selected);
  }
}

}  // namespace snapscope::term
