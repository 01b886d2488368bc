#include "core/analysis/module_instances.h"

#include <algorithm>
#include <numeric>
#include <unordered_map>

#include "core/analysis/frame_kind.h"
#include "core/analysis/module_calls.h"

namespace snapscope {
namespace {

std::vector<PyFrame> frames_of(const StackSource& stacks, StackId stack) {
  std::vector<PyFrame> frames;
  for (FrameId id : stacks.stack_frames(stack)) {
    const FrameRef frame = stacks.frame(id);
    frames.push_back({frame.name, frame.filename, frame.line});
  }
  return frames;
}

// A stack run by autograd's engine: an autograd node or the engine itself is on it.
bool is_backward(std::span<const PyFrame> frames) {
  return std::any_of(frames.begin(), frames.end(), [](const PyFrame& frame) {
    return frame.name.starts_with("torch::autograd::Engine::") ||
           classify_frame(frame.name, frame.filename) == FrameKind::AutogradNode;
  });
}

struct StackModules {
  std::vector<ModuleCall> calls;  // views into the stack source
  bool backward = false;
};

StackModules stack_modules(const StackSource& stacks, StackId stack) {
  const std::vector<PyFrame> frames = frames_of(stacks, stack);
  return {module_calls(frames), is_backward(frames)};
}

std::string call_key(const ModuleCall& call) {
  return std::string(call.file) + '\n' + std::string(call.function) + '\n' + std::string(call.caller_file) +
         ':' + std::to_string(call.caller_line);
}

}  // namespace

ForwardFramesOf forward_frames_by_alloc(std::span<const ReplayElement> elements,
                                        const ForwardFramesByEvent& events) {
  if (events.empty()) return {};
  return [elements, &events](uint32_t elem) -> std::string_view {
    const auto found = events.find(elements[elem].alloc_event);
    return found == events.end() ? std::string_view{} : std::string_view(found->second);
  };
}

ModuleInstances::ModuleInstances(std::span<const ReplayElement> elements, const StackSource& stacks,
                                 const ForwardFramesOf& forward_frames) {
  nodes_.resize(5);
  nodes_[kOutsideModules].label = kOutsideModulesLabel;
  nodes_[kBackwardNoForward].label = kBackwardNoForwardLabel;
  nodes_[kUntracedModules].label = kUntracedModulesLabel;
  nodes_[kBackwardByForward].label = kBackwardByForwardLabel;
  children_.resize(nodes_.size());
  node_of_elem_.assign(elements.size(), kUntracedModules);

  std::vector<uint32_t> order(elements.size());
  std::iota(order.begin(), order.end(), 0u);
  std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    return elements[a].source_event() < elements[b].source_event();
  });
  // A trace has far fewer stacks than allocations: read each stack's frames once.
  std::unordered_map<StackId, StackModules> by_stack;
  for (uint32_t elem : order) {
    const ReplayElement& element = elements[elem];
    if (element.origin == Origin::FreeWithoutAlloc || element.stack == 0) continue;  // untraced
    auto [cached, added] = by_stack.try_emplace(element.stack);
    if (added) cached->second = stack_modules(stacks, element.stack);
    const std::vector<ModuleCall>& calls = cached->second.calls;
    if (!calls.empty()) {
      node_of_elem_[elem] = place(calls, kModuleRoot, true);
    } else if (!cached->second.backward) {
      node_of_elem_[elem] = kOutsideModules;
    } else {
      const std::string_view forward = forward_frames ? forward_frames(elem) : std::string_view{};
      const std::vector<PyFrame> forward_stack = parse_forward_frames(forward);
      const std::vector<ModuleCall> forward_calls = module_calls(forward_stack);
      // Backward runs modules in reverse, so it keeps no call order: one node per module path.
      node_of_elem_[elem] =
          forward_calls.empty() ? kBackwardNoForward : place(forward_calls, kBackwardByForward, false);
    }
  }
  finish_labels();
}

uint32_t ModuleInstances::place(std::span<const ModuleCall> calls, uint32_t root, bool new_calls) {
  uint32_t node = root;
  for (const ModuleCall& call : calls) node = child(node, call, new_calls);
  return node;
}

uint32_t ModuleInstances::child(uint32_t parent, const ModuleCall& call, bool new_calls) {
  std::string key = call_key(call);
  auto found = children_[parent].find(key);
  if (found != children_[parent].end()) {
    auto& [current, calls] = found->second;
    // The forward going back to an earlier line: a new call of the same module.
    if (!new_calls || call.line >= nodes_[current].last_line) {
      nodes_[current].last_line = call.line;
      return current;
    }
  }
  const uint32_t made = static_cast<uint32_t>(nodes_.size());
  ModuleNode node;
  node.parent = parent;
  node.label = module_call_label(call);
  node.last_line = call.line;
  node.key = key;
  auto& entry = children_[parent][std::move(key)];
  node.ordinal = found == children_[parent].end() ? 0 : entry.second;
  entry = {made, node.ordinal + 1};
  nodes_.push_back(std::move(node));
  children_.emplace_back();
  return made;
}

void ModuleInstances::finish_labels() {
  for (ModuleNode& node : nodes_) {
    if (node.key.empty()) continue;
    if (children_[node.parent].at(node.key).second > 1)
      node.label += " [" + std::to_string(node.ordinal) + "]";
  }
}

}  // namespace snapscope
