// Which live allocations a call-tree node stands for (to highlight them on the chart), and a
// node's identity across rebuilds: node ids change whenever the cursor moves, but the frame path
// from the root does not, so expansion and focus survive by path.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "core/analysis/call_tree.h"

namespace snapscope {

// One step of a node path: a frame, or the untraced / pre-existing node.
inline constexpr FrameId kUntracedStep = kNoIndex;

std::vector<FrameId> node_path(const CallTree& tree, uint32_t node);  // root excluded
std::optional<uint32_t> node_at_path(const CallTree& tree, std::span<const FrameId> path);

// Elements of `live` (the list the tree was built from) in the subtree of `node`.
std::vector<uint32_t> elements_under(const CallTree& tree, uint32_t node, std::span<const LiveElement> live,
                                     const StackSource& source);

}  // namespace snapscope
