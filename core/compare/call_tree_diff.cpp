#include "core/compare/call_tree_diff.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <unordered_map>

#include "core/util/format.h"

namespace snapscope {
namespace {

uint64_t magnitude(int64_t delta) {
  return delta < 0 ? 0 - static_cast<uint64_t>(delta) : static_cast<uint64_t>(delta);
}

bool shown_before(const TreeDiffNode& x, const TreeDiffNode& y) {
  const uint64_t dx = magnitude(x.delta()), dy = magnitude(y.delta());
  if (dx != dy) return dx > dy;
  const uint64_t size_x = std::max(x.bytes_a, x.bytes_b), size_y = std::max(y.bytes_a, y.bytes_b);
  return size_x != size_y ? size_x > size_y : x.label < y.label;
}

}  // namespace

std::string CallTreeDiff::path_text(uint32_t id) const {
  std::vector<uint32_t> chain;
  for (uint32_t node = id; node != kRoot && node != kNoIndex; node = nodes_[node].parent)
    chain.push_back(node);
  if (chain.empty()) return nodes_[kRoot].label;
  std::string text;
  for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
    if (!text.empty()) text += " > ";
    text += nodes_[*it].label;
  }
  return text;
}

// Breadth first: a diff node's children are the union, by label, of the children of every A and
// B tree node merged into it. Parents therefore always precede their children in nodes_.
CallTreeDiff diff_call_trees(const CallTree& a, const StackSource& source_a, const CallTree& b,
                             const StackSource& source_b) {
  CallTreeDiff diff;
  std::vector<TreeDiffNode>& nodes = diff.nodes_;
  TreeDiffNode root;
  root.label = a.label(CallTree::kRoot, source_a);
  root.bytes_a = a.total_bytes();
  root.bytes_b = b.total_bytes();
  root.count_a = a.node(CallTree::kRoot).count;
  root.count_b = b.node(CallTree::kRoot).count;
  root.nodes_a = {CallTree::kRoot};
  root.nodes_b = {CallTree::kRoot};
  nodes.push_back(std::move(root));
  std::unordered_map<std::string, uint32_t> child_of;  // label -> diff node, per parent
  for (uint32_t parent = 0; parent < nodes.size(); ++parent) {
    child_of.clear();
    const auto merge_children = [&](const CallTree& tree, const StackSource& source, bool side_a) {
      const std::vector<uint32_t> members = side_a ? nodes[parent].nodes_a : nodes[parent].nodes_b;
      for (uint32_t member : members) {
        for (uint32_t child : tree.node(member).children) {
          const auto [found, inserted] =
              child_of.emplace(tree.label(child, source), static_cast<uint32_t>(nodes.size()));
          if (inserted) {
            TreeDiffNode fresh;
            fresh.label = found->first;
            fresh.parent = parent;
            fresh.depth = nodes[parent].depth + 1;
            nodes.push_back(std::move(fresh));
            nodes[parent].children.push_back(found->second);
          }
          TreeDiffNode& joined = nodes[found->second];
          const CallTreeNode& from = tree.node(child);
          (side_a ? joined.bytes_a : joined.bytes_b) += from.bytes;
          (side_a ? joined.count_a : joined.count_b) += from.count;
          (side_a ? joined.nodes_a : joined.nodes_b).push_back(child);
        }
      }
    };
    merge_children(a, source_a, true);
    merge_children(b, source_b, false);
    for (uint32_t child : nodes[parent].children) {
      TreeDiffNode& node = nodes[child];
      node.status = node.nodes_a.empty()   ? DiffStatus::New
                    : node.nodes_b.empty() ? DiffStatus::Vanished
                                           : DiffStatus::Both;
    }
    std::vector<uint32_t>& children = nodes[parent].children;
    std::sort(children.begin(), children.end(),
              [&](uint32_t x, uint32_t y) { return shown_before(nodes[x], nodes[y]); });
  }
  return diff;
}

std::vector<uint32_t> significant_nodes(const CallTreeDiff& diff, uint32_t max_depth, uint64_t min_delta) {
  // A node is kept when it is significant itself or has a significant descendant (its context).
  std::vector<char> keep(diff.size(), 0);
  for (size_t id = diff.size(); id-- > 1;) {
    const TreeDiffNode& node = diff.node(static_cast<uint32_t>(id));
    if (node.depth <= max_depth && magnitude(node.delta()) >= min_delta) keep[id] = 1;
    if (keep[id]) keep[node.parent] = 1;
  }
  return display_order(
      diff, [](uint32_t) { return true; }, [&](uint32_t child, size_t) { return keep[child] != 0; });
}

std::vector<uint32_t> display_order(const CallTreeDiff& diff, const std::function<bool(uint32_t node)>& open,
                                    const std::function<bool(uint32_t child, size_t index)>& shown) {
  std::vector<uint32_t> order;
  std::vector<uint32_t> pending = {CallTreeDiff::kRoot};
  while (!pending.empty()) {
    const uint32_t id = pending.back();
    pending.pop_back();
    order.push_back(id);
    if (!open(id)) continue;
    const std::vector<uint32_t>& children = diff.node(id).children;
    for (size_t i = children.size(); i-- > 0;) {
      if (shown(children[i], i)) pending.push_back(children[i]);
    }
  }
  return order;
}

nlohmann::json call_tree_diff_rows_json(const CallTreeDiff& diff, std::span<const uint32_t> nodes) {
  nlohmann::json rows = nlohmann::json::array();
  for (uint32_t id : nodes) {
    const TreeDiffNode& node = diff.node(id);
    rows.push_back({{"path", diff.path_text(id)},
                    {"depth", node.depth},
                    {"bytes_a", node.bytes_a},
                    {"bytes_b", node.bytes_b},
                    {"delta", node.delta()},
                    {"count_a", node.count_a},
                    {"count_b", node.count_b},
                    {"status", node.status == DiffStatus::Both ? "both" : diff_status_name(node.status)}});
  }
  return rows;
}

namespace {

// Chains of frames that only pass memory through (one shown child holding all of a node's bytes
// in both runs: the C++ frames under an operator, say) are folded in text: their first and last
// frame are printed, the ones between become one "... N frames ..." line.
constexpr size_t kMinFoldedFrames = 2;

class ChainFolder {
 public:
  ChainFolder(const CallTreeDiff& diff, const std::vector<uint32_t>& order)
      : diff_(diff),
        shown_child_count_(diff.size(), 0),
        only_child_(diff.size(), kNoIndex),
        folded_(diff.size(), 0) {
    for (uint32_t id : order) {
      if (id == CallTreeDiff::kRoot) continue;
      const uint32_t parent = diff.node(id).parent;
      ++shown_child_count_[parent];
      only_child_[parent] = id;
    }
    for (uint32_t id : order) {
      if (passes_through(id) && (id == CallTreeDiff::kRoot || !passes_through(diff.node(id).parent)))
        fold_chain_from(id);
    }
  }
  bool folded(uint32_t id) const { return folded_[id] != 0; }
  // For the first folded frame of a chain: how many frames the chain hides.
  size_t hidden_from(uint32_t id) const {
    size_t count = 0;
    for (uint32_t node = id; node != kNoIndex && folded(node); node = only_child_[node]) ++count;
    return count;
  }

 private:
  bool passes_through(uint32_t id) const {
    if (shown_child_count_[id] != 1) return false;
    const TreeDiffNode& node = diff_.node(id);
    const TreeDiffNode& child = diff_.node(only_child_[id]);
    return node.bytes_a == child.bytes_a && node.bytes_b == child.bytes_b && node.count_a == child.count_a &&
           node.count_b == child.count_b;
  }
  void fold_chain_from(uint32_t first) {
    std::vector<uint32_t> chain = {first};
    while (passes_through(chain.back())) chain.push_back(only_child_[chain.back()]);
    // chain: first ... last; everything strictly between is hidden when there is enough of it.
    if (chain.size() < kMinFoldedFrames + 2) return;
    for (size_t i = 1; i + 1 < chain.size(); ++i) folded_[chain[i]] = 1;
  }

  const CallTreeDiff& diff_;
  std::vector<uint32_t> shown_child_count_;
  std::vector<uint32_t> only_child_;  // the last shown child seen (the only one when the count is 1)
  std::vector<char> folded_;
};

std::string byte_columns(const TreeDiffNode& node) {
  char line[64];
  std::snprintf(line, sizeof line, "%12s %11s %11s  ", format_signed_bytes(node.delta()).c_str(),
                format_bytes(static_cast<double>(node.bytes_a)).c_str(),
                format_bytes(static_cast<double>(node.bytes_b)).c_str());
  return line;
}

}  // namespace

std::string call_tree_diff_text(const CallTreeDiff& diff, uint32_t max_depth, uint64_t min_delta,
                                size_t top) {
  const std::vector<uint32_t> order = significant_nodes(diff, max_depth, min_delta);
  const ChainFolder folder(diff, order);
  std::vector<uint32_t> indent(diff.size(), 0);  // printed depth: folded frames do not count
  std::string text = "       Delta           A           B  Call path (top-down)\n";
  size_t printed = 0, more = 0;
  for (uint32_t id : order) {
    if (top != 0 && printed >= top) {
      more += !folder.folded(id);
      continue;
    }
    const TreeDiffNode& node = diff.node(id);
    if (id != CallTreeDiff::kRoot) {
      const uint32_t parent = node.parent;
      indent[id] = folder.folded(parent) ? indent[parent] : indent[parent] + 1;
    }
    if (folder.folded(id)) {
      if (!folder.folded(node.parent))
        text += std::string(38, ' ') + std::string(2 * indent[id], ' ') + "... " +
                std::to_string(folder.hidden_from(id)) + " frames ...\n";
      continue;
    }
    const std::string label =
        node.label.size() > kMaxPathLabel ? node.label.substr(0, kMaxPathLabel - 3) + "..." : node.label;
    text += byte_columns(node) + std::string(2 * indent[id], ' ') + label;
    if (node.status != DiffStatus::Both) text += std::string("  [") + diff_status_name(node.status) + "]";
    text += "\n";
    ++printed;
  }
  if (more > 0) text += "(" + std::to_string(more) + " more call paths; --top 0 shows all)\n";
  return text;
}

}  // namespace snapscope
