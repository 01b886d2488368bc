// The frame filter and the location rule (core/analysis/frame_kind.h) over interned frames, with
// each frame's kind cached per frame id, so filtering millions of stack entries costs one hash
// lookup each.
#pragma once

#include <unordered_map>
#include <vector>

#include "core/analysis/frame_kind.h"
#include "core/analysis/stack_source.h"

namespace snapscope {

class FrameNoiseCache {
 public:
  explicit FrameNoiseCache(const StackSource& source) : source_(source) {}
  FrameKind kind(FrameId frame) const;
  bool is_noise(FrameId frame) const { return kind(frame) == FrameKind::Hidden; }
  // The frames the filter keeps, in the same order; all of them if every frame is hidden
  // (so a stack never vanishes from a view).
  void kept_frames(std::span<const FrameId> frames, std::vector<FrameId>& out) const;
  // Index into `frames` (innermost first) of the location frame; 0 for an empty stack.
  size_t location_index(std::span<const FrameId> frames) const;
  // Index of the innermost generated frame inside the location frame (compiled_frame_index);
  // frames.size() when the location is eager code.
  size_t compiled_index(std::span<const FrameId> frames, size_t location) const;

 private:
  const StackSource& source_;
  mutable std::unordered_map<FrameId, FrameKind> kinds_;
  mutable uint64_t generation_ = wrapper_libraries_generation();
};

}  // namespace snapscope
