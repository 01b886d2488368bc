// Where the analysis layer gets call stacks from: an in-memory Snapshot or a converted
// elements.db. Frames and stacks keep their interned ids, so callers can group by id and only
// resolve strings for what they show.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

#include "core/snapshot/model.h"

namespace snapscope {

// One frame with its strings resolved. The views stay valid as long as the source does.
struct FrameRef {
  std::string_view name;
  std::string_view filename;
  int64_t line = 0;
  // FX graph annotations (torch.compile); empty when absent.
  std::string_view fx_node_op, fx_node_name, fx_node_target, fx_original_trace;
};

// Not thread-safe: implementations may fill caches on lookup.
class StackSource {
 public:
  virtual ~StackSource() = default;
  // Frame ids of a stack, innermost frame first (torch's order). Valid as long as the source.
  virtual std::span<const FrameId> stack_frames(StackId stack) const = 0;
  virtual FrameRef frame(FrameId id) const = 0;
};

}  // namespace snapscope
