// "Where was this allocated": one frame of the stack (the location rule, frame_kind.h), as
// "file:line (function)" or, for a native frame, its short name ("BmmBackward0"). Locations are
// interned so tables can group by a small id.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/analysis/frame_noise.h"

namespace snapscope {

inline constexpr std::string_view kUntracedLabel = "untraced / pre-existing";
using LocationId = uint32_t;
inline constexpr LocationId kUntracedLocation = 0;  // stacks without frames

// "file:line (function)"; "BmmBackward0" / "at::native::bmm" for native frames (location_label).
std::string format_location(const FrameRef& frame);

enum class LocationRule : uint8_t {
  // The innermost frame the filter keeps (literal memory_viz, with the wider filter of
  // frame_kind.h): often a tensor-factory frame on traces with C++ stacks.
  FirstShownFrame,
  // The location rule (frame_kind.h location_frame_index): the innermost user frame, or the
  // autograd node of a backward allocation, or the ATen operator of a C++-only stack.
  FirstUserFrame,
};

class LocationIndex {
 public:
  LocationIndex(const StackSource& source, LocationRule rule);
  LocationRule rule() const { return rule_; }
  LocationId location_of(StackId stack);
  std::string_view label(LocationId location) const { return labels_[location]; }
  size_t size() const { return labels_.size(); }
  // FirstUserFrame only: the allocation was made by compiled code (an Inductor kernel, an FX
  // graph) that the location's line called; its label ends in kCompiledSuffix.
  bool compiled(LocationId location) const { return !compiled_frames_[location].empty(); }
  // The generated frame itself ("/tmp/torchinductor_me/ab/cab....py:1690 (call)"), for a
  // tooltip: the first one seen for the location; empty for eager code.
  std::string_view compiled_frame(LocationId location) const { return compiled_frames_[location]; }

 private:
  struct Placed {
    FrameId frame = 0;
    std::optional<FrameId> compiled;  // the generated frame inside it, if any
  };
  std::optional<Placed> location_frame(StackId stack);

  const StackSource& source_;
  LocationRule rule_;
  FrameNoiseCache noise_;
  std::vector<std::string> labels_;
  std::vector<std::string> compiled_frames_;  // per location
  std::unordered_map<std::string, LocationId> by_label_;
  std::unordered_map<StackId, LocationId> by_stack_;
  std::vector<FrameId> scratch_;
};

}  // namespace snapscope
