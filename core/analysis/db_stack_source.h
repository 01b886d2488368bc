// StackSource over a converted elements.db (schema: docs/FORMAT.md), read-only, through the
// store's ElementsDbReader. Stacks, frames and strings are fetched on first use and cached, so a
// tree over a few thousand distinct stacks costs a few thousand indexed lookups, not a full
// table load.
#pragma once

#include <string>
#include <unordered_map>
#include <vector>

#include "core/analysis/stack_source.h"
#include "core/store/elements_db/elements_db_reader.h"

namespace snapscope {

class DbStackSource final : public StackSource {
 public:
  // Throws std::runtime_error("<path>: <reason>") when the file is missing or not an elements.db.
  explicit DbStackSource(const std::string& path);

  std::span<const FrameId> stack_frames(StackId stack) const override;
  FrameRef frame(FrameId id) const override;

 private:
  std::string_view string(StringId id) const;

  ElementsDbReader db_;
  // Node-based maps: cached vectors and strings never move, so returned spans/views stay valid.
  mutable std::unordered_map<StackId, std::vector<FrameId>> stacks_;
  mutable std::unordered_map<FrameId, FrameRef> frames_;
  mutable std::unordered_map<StringId, std::string> strings_;
};

}  // namespace snapscope
