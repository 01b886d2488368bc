#include "core/view/stack_text.h"

#include <limits>

namespace snapscope {

const std::string& StackTextReader::text(StringId id) {
  auto [it, inserted] = strings_.try_emplace(id);
  if (inserted) it->second = db_.string(id).value_or("");
  return it->second;
}

const FrameText& StackTextReader::frame(FrameId id) {
  if (auto it = frames_.find(id); it != frames_.end()) return it->second;
  const std::optional<Frame> ids = db_.frame(id);
  FrameText resolved;
  if (!ids) {
    resolved.name = "<frame " + std::to_string(id) + " missing from elements.db>";
  } else {
    resolved = {text(ids->name),
                text(ids->filename),
                ids->line,
                text(ids->fx_node_op),
                text(ids->fx_node_name),
                text(ids->fx_node_target),
                text(ids->fx_original_trace)};
  }
  return frames_.emplace(id, std::move(resolved)).first->second;
}

std::vector<FrameText> StackTextReader::stack(int64_t stack_id) {
  std::vector<FrameText> frames;
  if (stack_id <= 0 || stack_id > std::numeric_limits<StackId>::max()) return frames;
  for (FrameId id : db_.stack_frames(static_cast<StackId>(stack_id))) frames.push_back(frame(id));
  return frames;
}

}  // namespace snapscope
