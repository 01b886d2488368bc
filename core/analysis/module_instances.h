// Every allocation of a trace placed in a tree of module calls, the k-th call of the same forward
// at the same parent told apart as [k]. Calls are told apart by the order of allocations: a module
// whose forward line goes back up (an earlier line than its last allocation) was entered again.
// So repeated blocks of a model (for block in self.blocks) become [0], [1], ...; two calls that
// each allocate on the same lines only are indistinguishable and stay one node.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/analysis/module_calls.h"
#include "core/analysis/stack_source.h"
#include "core/timeline/replay_input.h"

namespace snapscope {

// The fixed top-level groups; module calls hang below kModuleRoot beside them.
inline constexpr uint32_t kModuleRoot = 0;
inline constexpr uint32_t kOutsideModules = 1;     // a Python stack without any module call
inline constexpr uint32_t kBackwardNoForward = 2;  // an autograd stack without forward_frames
inline constexpr uint32_t kUntracedModules = 3;    // no stack: untraced or pre-existing
inline constexpr uint32_t kBackwardByForward = 4;  // autograd with forward_frames: their module path

inline constexpr std::string_view kOutsideModulesLabel = "outside any module";
inline constexpr std::string_view kBackwardNoForwardLabel = "backward (no forward stack)";
inline constexpr std::string_view kUntracedModulesLabel = "untraced / pre-existing";
inline constexpr std::string_view kBackwardByForwardLabel = "backward (by forward module)";

struct ModuleNode {
  uint32_t parent = kModuleRoot;
  std::string label;      // module_call_label, plus " [k]" when its parent called it more than once
  int64_t last_line = 0;  // the forward's line of the latest allocation seen inside this call
  uint32_t ordinal = 0;   // k: this call's index among its parent's calls of the same key
  std::string key;        // the call's identity under its parent (forward and call site)
};

// The joined forward stack of an element's allocation (model.h forward_frames), empty if none.
using ForwardFramesOf = std::function<std::string_view(uint32_t elem)>;
// The forward stacks of a device's events by raw event index (those that carry one).
using ForwardFramesByEvent = std::unordered_map<int64_t, std::string>;
// Looks an element's forward stack up by its alloc event; `events` must outlive the result.
ForwardFramesOf forward_frames_by_alloc(std::span<const ReplayElement> elements,
                                        const ForwardFramesByEvent& events);

class ModuleInstances {
 public:
  // Reads the elements in allocation order (source_event; snapshot elements first).
  ModuleInstances(std::span<const ReplayElement> elements, const StackSource& stacks,
                  const ForwardFramesOf& forward_frames = {});

  uint32_t node_of(uint32_t elem) const { return node_of_elem_.at(elem); }
  const std::vector<ModuleNode>& nodes() const { return nodes_; }

 private:
  uint32_t place(std::span<const ModuleCall> calls, uint32_t root, bool new_calls);
  uint32_t child(uint32_t parent, const ModuleCall& call, bool new_calls);
  void finish_labels();

  std::vector<ModuleNode> nodes_;
  std::vector<uint32_t> node_of_elem_;
  // parent -> key -> its current call and how many calls of that key it made so far
  std::vector<std::map<std::string, std::pair<uint32_t, uint32_t>>> children_;
};

}  // namespace snapscope
