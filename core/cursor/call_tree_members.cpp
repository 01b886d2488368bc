#include "core/cursor/call_tree_members.h"

#include <algorithm>
#include <unordered_map>

#include "core/analysis/frame_noise.h"

namespace snapscope {
namespace {

FrameId step_of(const CallTreeNode& node) {
  return node.kind == CallTreeNodeKind::Untraced ? kUntracedStep : node.frame;
}

// The root-to-leaf path a stack takes in `tree`, as the builder lays it out (call_tree.h).
void stack_path(const CallTree& tree, StackId stack, const StackSource& source, FrameNoiseCache& noise,
                std::vector<FrameId>& path) {
  const std::span<const FrameId> frames = source.stack_frames(stack);
  if (frames.empty()) {
    path.assign(1, kUntracedStep);
    return;
  }
  call_tree_path(frames, tree.direction(), tree.filtered(), noise, path);
}

}  // namespace

std::vector<FrameId> node_path(const CallTree& tree, uint32_t node) {
  std::vector<FrameId> path;
  for (uint32_t id : tree.path_to(node)) {
    if (id != CallTree::kRoot) path.push_back(step_of(tree.node(id)));
  }
  return path;
}

std::optional<uint32_t> node_at_path(const CallTree& tree, std::span<const FrameId> path) {
  uint32_t node = CallTree::kRoot;
  for (FrameId step : path) {
    const std::vector<uint32_t>& children = tree.node(node).children;
    const auto child = std::find_if(children.begin(), children.end(),
                                    [&](uint32_t id) { return step_of(tree.node(id)) == step; });
    if (child == children.end()) return std::nullopt;
    node = *child;
  }
  return node;
}

std::vector<uint32_t> elements_under(const CallTree& tree, uint32_t node, std::span<const LiveElement> live,
                                     const StackSource& source) {
  const std::vector<FrameId> prefix = node_path(tree, node);
  FrameNoiseCache noise(source);
  std::unordered_map<StackId, bool> verdicts;  // per distinct stack: a few thousand, not millions
  std::vector<FrameId> path;
  std::vector<uint32_t> members;
  for (const LiveElement& element : live) {
    auto [it, inserted] = verdicts.try_emplace(element.stack, false);
    if (inserted) {
      stack_path(tree, element.stack, source, noise, path);
      it->second = path.size() >= prefix.size() && std::equal(prefix.begin(), prefix.end(), path.begin());
    }
    if (it->second) members.push_back(element.elem);
  }
  return members;
}

}  // namespace snapscope
