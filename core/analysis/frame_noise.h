// memory_viz's frame filter (core/view is_noise_frame) with the verdict cached per frame id, so
// filtering millions of stack entries costs one hash lookup each.
#pragma once

#include <unordered_map>

#include "core/analysis/stack_source.h"

namespace snapscope {

class FrameNoiseCache {
 public:
  explicit FrameNoiseCache(const StackSource& source) : source_(source) {}
  bool is_noise(FrameId frame) const;
  // The frames memory_viz keeps, in the same order; all of them if every frame is noise
  // (so a stack never vanishes from a view).
  void kept_frames(std::span<const FrameId> frames, std::vector<FrameId>& out) const;

 private:
  const StackSource& source_;
  mutable std::unordered_map<FrameId, bool> noise_;
};

}  // namespace snapscope
