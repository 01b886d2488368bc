// StackSource over a Snapshot held in memory (the converter's --report, tests).
#pragma once

#include "core/analysis/stack_source.h"

namespace snapscope {

class SnapshotStackSource final : public StackSource {
 public:
  explicit SnapshotStackSource(const Snapshot& snapshot) : snapshot_(snapshot) {}
  std::span<const FrameId> stack_frames(StackId stack) const override;
  FrameRef frame(FrameId id) const override;

 private:
  const Snapshot& snapshot_;
};

}  // namespace snapscope
