// Stacks of a converted snapshot as text (FrameText), for the inspector and the site colouring:
// read through the store's ElementsDbReader (stack -> frame ids -> frames -> strings), with the
// strings and frames already read kept, so resolving many stacks that share frames stays cheap.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/store/elements_db/elements_db_reader.h"
#include "core/view/stack_format.h"

namespace snapscope {

class StackTextReader {
 public:
  explicit StackTextReader(const ElementsDbReader& db) : db_(db) {}
  // Innermost frame first. A frame missing from a crafted or damaged file reads
  // "<frame N missing from elements.db>"; a missing string reads as empty; an id that names no
  // stack gives no frames.
  std::vector<FrameText> stack(int64_t stack_id);

 private:
  const std::string& text(StringId id);
  const FrameText& frame(FrameId id);

  const ElementsDbReader& db_;
  std::unordered_map<StringId, std::string> strings_;
  std::unordered_map<FrameId, FrameText> frames_;
};

}  // namespace snapscope
