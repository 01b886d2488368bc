#include "core/analysis/call_tree.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <unordered_map>

#include "core/analysis/frame_noise.h"
#include "core/analysis/source_location.h"
#include "core/util/format.h"

namespace snapscope {

CallTree::CallTree(TreeDirection direction, bool filtered) : direction_(direction), filtered_(filtered) {
  nodes_.push_back(CallTreeNode{kNoIndex, 0, CallTreeNodeKind::Root, 0, 0, 0, 0, {}});
}

double CallTree::percent_of_total(uint32_t id) const {
  return total_bytes() == 0 ? 0.0 : 100.0 * double(nodes_[id].bytes) / double(total_bytes());
}

std::vector<uint32_t> CallTree::path_to(uint32_t id) const {
  std::vector<uint32_t> path;
  for (uint32_t node = id; node != kNoIndex; node = nodes_[node].parent) path.push_back(node);
  std::reverse(path.begin(), path.end());
  return path;
}

std::string CallTree::label(uint32_t id, const StackSource& source) const {
  switch (nodes_[id].kind) {
    case CallTreeNodeKind::Root:
      return "all live memory";
    case CallTreeNodeKind::Untraced:
      return std::string(kUntracedLabel);
    case CallTreeNodeKind::Frame:
      break;
  }
  return format_location(source.frame(nodes_[id].frame));
}

// Inserts one path per distinct stack; children are found through one hash map keyed by
// (parent, frame), which is what makes building over millions of frames cheap.
class CallTreeBuilder {
 public:
  CallTreeBuilder(const StackSource& source, const CallTreeOptions& options)
      : source_(source), noise_(source), options_(options), tree_(options.direction, options.filter_frames) {}

  CallTree build(std::span<const LiveElement> live) {
    for (const auto& [stack, usage] : usage_by_stack(live)) add_stack(stack, usage);
    sort_children();
    return std::move(tree_);
  }

 private:
  struct Usage {
    uint64_t bytes = 0, count = 0;
  };

  // Ordered by stack id so node ids, and ties in the display order, are reproducible.
  static std::map<StackId, Usage> usage_by_stack(std::span<const LiveElement> live) {
    std::unordered_map<StackId, Usage> grouped;
    for (const LiveElement& element : live) {
      Usage& usage = grouped[element.stack];
      usage.bytes += element.size;
      usage.count += 1;
    }
    return {grouped.begin(), grouped.end()};
  }

  void add_stack(StackId stack, Usage usage) {
    add_usage(CallTree::kRoot, usage);
    const std::vector<FrameId>& path = path_frames(stack);
    uint32_t node = path.empty() ? untraced_node() : CallTree::kRoot;
    if (path.empty()) add_usage(node, usage);
    for (FrameId frame : path) {
      node = child(node, frame);
      add_usage(node, usage);
    }
    tree_.nodes_[node].self_bytes += usage.bytes;
  }

  const std::vector<FrameId>& path_frames(StackId stack) {
    call_tree_path(source_.stack_frames(stack), options_.direction, options_.filter_frames, noise_, path_);
    return path_;
  }

  uint32_t child(uint32_t parent, FrameId frame) {
    const uint64_t key = (uint64_t{parent} << 32) | frame;
    auto [it, inserted] = children_.try_emplace(key, static_cast<uint32_t>(tree_.nodes_.size()));
    if (inserted) add_node(parent, CallTreeNodeKind::Frame, frame);
    return it->second;
  }

  uint32_t untraced_node() {
    if (untraced_ == kNoIndex) {
      untraced_ = static_cast<uint32_t>(tree_.nodes_.size());
      add_node(CallTree::kRoot, CallTreeNodeKind::Untraced, 0);
    }
    return untraced_;
  }

  void add_node(uint32_t parent, CallTreeNodeKind kind, FrameId frame) {
    std::vector<CallTreeNode>& nodes = tree_.nodes_;
    const auto id = static_cast<uint32_t>(nodes.size());
    nodes.push_back(CallTreeNode{parent, nodes[parent].depth + 1, kind, frame, 0, 0, 0, {}});
    nodes[parent].children.push_back(id);
  }

  void add_usage(uint32_t node, Usage usage) {
    tree_.nodes_[node].bytes += usage.bytes;
    tree_.nodes_[node].count += usage.count;
  }

  void sort_children() {
    std::vector<CallTreeNode>& nodes = tree_.nodes_;
    for (CallTreeNode& node : nodes) {
      std::stable_sort(node.children.begin(), node.children.end(),
                       [&](uint32_t a, uint32_t b) { return nodes[a].bytes > nodes[b].bytes; });
    }
  }

  const StackSource& source_;
  FrameNoiseCache noise_;
  CallTreeOptions options_;
  CallTree tree_;
  std::unordered_map<uint64_t, uint32_t> children_;
  uint32_t untraced_ = kNoIndex;
  std::vector<FrameId> path_;
};

namespace {

bool names_location(FrameKind kind) {
  return kind == FrameKind::User || kind == FrameKind::AutogradNode || kind == FrameKind::Operator;
}

// A filtered top-down path starts at the outermost user frame, autograd node or operator: what
// lies outside it (runpy, the interpreter's start-up, the engine's thread) is nobody's code.
void start_at_user_code(std::vector<FrameId>& innermost_first, const FrameNoiseCache& noise) {
  for (size_t i = innermost_first.size(); i-- > 0;) {
    if (names_location(noise.kind(innermost_first[i]))) {
      innermost_first.resize(i + 1);
      return;
    }
  }
}

}  // namespace

void call_tree_path(std::span<const FrameId> frames, TreeDirection direction, bool filtered,
                    const FrameNoiseCache& noise, std::vector<FrameId>& path) {
  if (!filtered) {
    path.assign(frames.begin(), frames.end());
  } else if (direction == TreeDirection::BottomUp && !frames.empty()) {
    noise.kept_frames(frames.subspan(noise.location_index(frames)), path);
  } else {
    noise.kept_frames(frames, path);
    start_at_user_code(path, noise);
  }
  if (direction == TreeDirection::TopDown) std::reverse(path.begin(), path.end());
}

CallTree build_call_tree(std::span<const LiveElement> live, const StackSource& source,
                         const CallTreeOptions& options) {
  return CallTreeBuilder(source, options).build(live);
}

namespace {

void append_subtree(std::string& text, const CallTree& tree, const StackSource& source, uint32_t id,
                    uint32_t levels_left, double min_percent, uint32_t indent) {
  const CallTreeNode& node = tree.node(id);
  char numbers[64];
  std::snprintf(numbers, sizeof numbers, "%6.2f%%  ", tree.percent_of_total(id));
  text += std::string(2 * indent, ' ') + numbers + format_bytes(double(node.bytes)) + "  " +
          format_grouped(node.count) + "  " + tree.label(id, source) + '\n';
  if (levels_left == 0) return;
  for (uint32_t child : node.children) {
    if (tree.percent_of_total(child) < min_percent) break;  // children are sorted by bytes
    append_subtree(text, tree, source, child, levels_left - 1, min_percent, indent + 1);
  }
}

}  // namespace

std::string call_tree_text(const CallTree& tree, const StackSource& source, uint32_t root, uint32_t max_depth,
                           double min_percent) {
  std::string text;
  append_subtree(text, tree, source, root, max_depth, min_percent, 0);
  return text;
}

}  // namespace snapscope
