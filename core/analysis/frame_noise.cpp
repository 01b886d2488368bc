#include "core/analysis/frame_noise.h"

namespace snapscope {

FrameKind FrameNoiseCache::kind(FrameId frame) const {
  if (const uint64_t now = wrapper_libraries_generation(); now != generation_) {
    kinds_.clear();  // the wrapper list changed: Python frames may have changed kind
    generation_ = now;
  }
  auto [it, inserted] = kinds_.try_emplace(frame, FrameKind::Hidden);
  if (inserted) {
    const FrameRef ref = source_.frame(frame);
    it->second = classify_frame(ref.name, ref.filename);
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

size_t FrameNoiseCache::location_index(std::span<const FrameId> frames) const {
  return location_frame_index(frames.size(), [&](size_t i) { return kind(frames[i]); });
}

size_t FrameNoiseCache::compiled_index(std::span<const FrameId> frames, size_t location) const {
  return compiled_frame_index(frames.size(), location, [&](size_t i) { return kind(frames[i]); });
}

}  // namespace snapscope
