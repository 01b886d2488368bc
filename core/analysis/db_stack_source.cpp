#include "core/analysis/db_stack_source.h"

#include <stdexcept>

namespace snapscope {

DbStackSource::DbStackSource(const std::string& path)
    : db_(path, SqliteDatabase::Mode::ReadOnly),
      stack_query_(db_.prepare("SELECT frame_id FROM stacks WHERE stack_id = ? ORDER BY depth")),
      frame_query_(db_.prepare("SELECT name, filename, line, fx_node_op, fx_node_name, fx_node_target, "
                               "fx_original_trace FROM frames WHERE id = ?")),
      string_query_(db_.prepare("SELECT text FROM strings WHERE id = ?")) {}

std::span<const FrameId> DbStackSource::stack_frames(StackId stack) const {
  if (stack == 0) return {};
  auto [it, inserted] = stacks_.try_emplace(stack);
  if (inserted) {
    stack_query_.reset();
    stack_query_.bind(1, int64_t{stack});
    while (stack_query_.next_row()) it->second.push_back(static_cast<FrameId>(stack_query_.column_int(0)));
  }
  return it->second;
}

std::string_view DbStackSource::string(StringId id) const {
  auto [it, inserted] = strings_.try_emplace(id);
  if (inserted && id != 0) {
    string_query_.reset();
    string_query_.bind(1, int64_t{id});
    if (!string_query_.next_row()) {
      strings_.erase(it);
      throw std::runtime_error(db_.path() + ": string " + std::to_string(id) + " is missing");
    }
    it->second = string_query_.column_text(0);
  }
  return it->second;
}

FrameRef DbStackSource::frame(FrameId id) const {
  if (auto it = frames_.find(id); it != frames_.end()) return it->second;
  frame_query_.reset();
  frame_query_.bind(1, int64_t{id});
  if (!frame_query_.next_row())
    throw std::runtime_error(db_.path() + ": frame " + std::to_string(id) + " is missing");
  StringId ids[7];
  for (int column = 0; column < 7; ++column)
    ids[column] = static_cast<StringId>(frame_query_.column_int(column));
  const int64_t line = frame_query_.column_int(2);
  // Read every column before resolving strings: resolving runs another statement.
  const FrameRef resolved{string(ids[0]), string(ids[1]), line,          string(ids[3]),
                          string(ids[4]), string(ids[5]), string(ids[6])};
  return frames_.emplace(id, resolved).first->second;
}

}  // namespace snapscope
