#include "core/analysis/db_stack_source.h"

#include <stdexcept>

namespace snapscope {

DbStackSource::DbStackSource(const std::string& path) : db_(path) {}

std::span<const FrameId> DbStackSource::stack_frames(StackId stack) const {
  if (stack == 0) return {};
  auto [it, inserted] = stacks_.try_emplace(stack);
  if (inserted) it->second = db_.stack_frames(stack);
  return it->second;
}

std::string_view DbStackSource::string(StringId id) const {
  auto [it, inserted] = strings_.try_emplace(id);
  if (inserted && id != 0) {
    std::optional<std::string> text = db_.string(id);
    if (!text) {
      strings_.erase(it);
      throw std::runtime_error(db_.path() + ": string " + std::to_string(id) + " is missing");
    }
    it->second = std::move(*text);
  }
  return it->second;
}

FrameRef DbStackSource::frame(FrameId id) const {
  if (auto it = frames_.find(id); it != frames_.end()) return it->second;
  const std::optional<Frame> ids = db_.frame(id);
  if (!ids) throw std::runtime_error(db_.path() + ": frame " + std::to_string(id) + " is missing");
  const FrameRef resolved{string(ids->name),
                          string(ids->filename),
                          ids->line,
                          string(ids->fx_node_op),
                          string(ids->fx_node_name),
                          string(ids->fx_node_target),
                          string(ids->fx_original_trace)};
  return frames_.emplace(id, resolved).first->second;
}

}  // namespace snapscope
