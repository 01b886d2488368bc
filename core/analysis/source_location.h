// "Where was this allocated": the first frame of a stack that memory_viz's filter keeps,
// as "file:line (function)". Locations are interned so tables can group by a small id.
#pragma once

#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/analysis/frame_noise.h"

namespace snapscope {

inline constexpr std::string_view kUntracedLabel = "untraced / pre-existing";
using LocationId = uint32_t;
inline constexpr LocationId kUntracedLocation = 0;  // stacks without frames

std::string format_location(const FrameRef& frame);  // "file:line (function)"

class LocationIndex {
 public:
  explicit LocationIndex(const StackSource& source);
  LocationId location_of(StackId stack);
  std::string_view label(LocationId location) const { return labels_[location]; }
  size_t size() const { return labels_.size(); }

 private:
  const StackSource& source_;
  FrameNoiseCache noise_;
  std::vector<std::string> labels_;
  std::unordered_map<std::string, LocationId> by_label_;
  std::unordered_map<StackId, LocationId> by_stack_;
  std::vector<FrameId> scratch_;
};

}  // namespace snapscope
