// "Where was this allocated": one frame of the stack, as "file:line (function)". Locations are
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

std::string format_location(const FrameRef& frame);  // "file:line (function)"

enum class LocationRule : uint8_t {
  // The innermost frame memory_viz's filter keeps. With C++ frames recorded this is usually the
  // caching allocator itself, so every allocation lands in one row.
  FirstShownFrame,
  // The innermost user Python frame (core/view first_user_frame), else the innermost shown one.
  FirstUserFrame,
};

class LocationIndex {
 public:
  LocationIndex(const StackSource& source, LocationRule rule);
  LocationRule rule() const { return rule_; }
  LocationId location_of(StackId stack);
  std::string_view label(LocationId location) const { return labels_[location]; }
  size_t size() const { return labels_.size(); }

 private:
  std::optional<FrameId> location_frame(StackId stack);

  const StackSource& source_;
  LocationRule rule_;
  FrameNoiseCache noise_;
  std::vector<std::string> labels_;
  std::unordered_map<std::string, LocationId> by_label_;
  std::unordered_map<StackId, LocationId> by_stack_;
  std::vector<FrameId> scratch_;
};

}  // namespace snapscope
