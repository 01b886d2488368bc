#include "core/analysis/frame_noise.h"

#include "core/view/stack_format.h"

namespace snapscope {

bool FrameNoiseCache::is_noise(FrameId frame) const {
  auto [it, inserted] = noise_.try_emplace(frame, false);
  if (inserted) {
    const FrameRef ref = source_.frame(frame);
    it->second = is_noise_frame(ref.name, ref.filename);
  }
  return it->second;
}

void FrameNoiseCache::kept_frames(std::span<const FrameId> frames, std::vector<FrameId>& out) const {
  out.clear();
  for (FrameId frame : frames) {
    if (!is_noise(frame)) out.push_back(frame);
  }
  if (out.empty()) out.assign(frames.begin(), frames.end());
}

}  // namespace snapscope
