// Every interned string, frame and stack of one snapshot, held in memory and immutable once
// built. It answers StackSource lookups without locks (so a worker thread and the UI can share
// it) and lets search match frames at the intern level: each string and frame is tested once,
// however many allocations use it.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "core/analysis/stack_source.h"

namespace snapscope {

class StackCatalog final : public StackSource {
 public:
  // Pieces as the snapshot interned them; ids index these vectors. stack_begin has one more
  // entry than there are stacks; stack s is stack_frames[stack_begin[s], stack_begin[s + 1]).
  StackCatalog(std::vector<std::string> strings, std::vector<Frame> frames, std::vector<uint64_t> stack_begin,
               std::vector<FrameId> stack_frames);

  std::span<const FrameId> stack_frames(StackId stack) const override;  // empty for unknown ids
  FrameRef frame(FrameId id) const override;                            // empty strings for unknown ids

  size_t string_count() const { return strings_.size(); }
  size_t frame_count() const { return frames_.size(); }
  size_t stack_count() const { return stack_begin_.size() - 1; }
  std::string_view string(StringId id) const {
    return id < strings_.size() ? strings_[id] : std::string_view();
  }
  const Frame& frame_ids(FrameId id) const { return frames_[id]; }

 private:
  std::vector<std::string> strings_;
  std::vector<Frame> frames_;
  std::vector<uint64_t> stack_begin_;
  std::vector<FrameId> stack_frames_;
};

std::shared_ptr<const StackCatalog> catalog_from_snapshot(const Snapshot& snapshot);
// Reads the strings, frames and stacks tables of a converted elements.db (docs/FORMAT.md)
// through ElementsDbReader::stack_tables().
// Throws InputError("<path>: <reason>") when it cannot.
std::shared_ptr<const StackCatalog> catalog_from_elements_db(const std::string& path);

}  // namespace snapscope
