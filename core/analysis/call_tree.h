// The live allocations of one state as a call tree: top-down (root = outermost frame, the
// way the program called down to the allocation) or bottom-up (root children = allocating
// frames, then their callers). Every node rolls up the bytes and allocation count below it.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/analysis/frame_noise.h"
#include "core/analysis/live_elements.h"
#include "core/analysis/stack_source.h"

namespace snapscope {

enum class TreeDirection : uint8_t { TopDown, BottomUp };

struct CallTreeOptions {
  TreeDirection direction = TreeDirection::TopDown;
  // Drop the frames the filter hides (FrameNoiseCache); a bottom-up tree then also starts at each
  // stack's location (the moment table's rows), not at the allocator's internals.
  bool filter_frames = true;
};

enum class CallTreeNodeKind : uint8_t {
  Root,
  Frame,
  Untraced,  // allocations without an allocation stack: untraced or pre-existing
};

struct CallTreeNode {
  uint32_t parent = kNoIndex;
  uint32_t depth = 0;  // root is 0
  CallTreeNodeKind kind = CallTreeNodeKind::Frame;
  FrameId frame = 0;               // Frame nodes only
  uint64_t bytes = 0;              // live bytes allocated in this subtree
  uint64_t self_bytes = 0;         // live bytes whose (filtered) stack ends at this node
  uint64_t count = 0;              // live allocations in this subtree
  std::vector<uint32_t> children;  // bytes descending
};

class CallTree {
 public:
  static constexpr uint32_t kRoot = 0;

  CallTree(TreeDirection direction, bool filtered);
  const CallTreeNode& node(uint32_t id) const { return nodes_[id]; }
  size_t size() const { return nodes_.size(); }
  TreeDirection direction() const { return direction_; }
  bool filtered() const { return filtered_; }
  uint64_t total_bytes() const { return nodes_[kRoot].bytes; }
  double percent_of_total(uint32_t id) const;        // of all live bytes, 0 when nothing is live
  std::vector<uint32_t> path_to(uint32_t id) const;  // root first; what a view must expand
  std::string label(uint32_t id, const StackSource& source) const;

 private:
  friend class CallTreeBuilder;
  TreeDirection direction_;
  bool filtered_;
  std::vector<CallTreeNode> nodes_;
};

// The root-to-leaf frames a stack takes in a tree: outermost first for top-down (filtered: from
// the outermost user frame, autograd node or operator), innermost first for bottom-up (filtered:
// from the location). Empty for an empty stack.
void call_tree_path(std::span<const FrameId> frames, TreeDirection direction, bool filtered,
                    const FrameNoiseCache& noise, std::vector<FrameId>& path);

CallTree build_call_tree(std::span<const LiveElement> live, const StackSource& source,
                         const CallTreeOptions& options = {});

// Indented text of a subtree: one line per node down to max_depth levels below `root`, skipping
// children under min_percent of live memory. For the report and debugging.
std::string call_tree_text(const CallTree& tree, const StackSource& source, uint32_t root, uint32_t max_depth,
                           double min_percent);

}  // namespace snapscope
