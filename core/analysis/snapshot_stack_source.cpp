#include "core/analysis/snapshot_stack_source.h"

namespace snapscope {

std::span<const FrameId> SnapshotStackSource::stack_frames(StackId stack) const {
  return snapshot_.stacks.frames(stack);
}

FrameRef SnapshotStackSource::frame(FrameId id) const {
  const Frame& frame = snapshot_.frames.get(id);
  const StringTable& strings = snapshot_.strings;
  return FrameRef{strings.view(frame.name),
                  strings.view(frame.filename),
                  frame.line,
                  strings.view(frame.fx_node_op),
                  strings.view(frame.fx_node_name),
                  strings.view(frame.fx_node_target),
                  strings.view(frame.fx_original_trace)};
}

}  // namespace snapscope
