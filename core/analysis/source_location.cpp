#include "core/analysis/source_location.h"

namespace snapscope {

std::string format_location(const FrameRef& frame) {
  std::string text(frame.filename);
  text += ':';
  text += std::to_string(frame.line);
  text += " (";
  text += frame.name;
  text += ')';
  return text;
}

LocationIndex::LocationIndex(const StackSource& source) : source_(source), noise_(source) {
  labels_.emplace_back(kUntracedLabel);
  by_label_.emplace(labels_.back(), kUntracedLocation);
  by_stack_.emplace(StackId{0}, kUntracedLocation);
}

LocationId LocationIndex::location_of(StackId stack) {
  if (auto it = by_stack_.find(stack); it != by_stack_.end()) return it->second;
  noise_.kept_frames(source_.stack_frames(stack), scratch_);
  LocationId location = kUntracedLocation;
  if (!scratch_.empty()) {
    std::string label = format_location(source_.frame(scratch_.front()));
    auto [it, inserted] = by_label_.try_emplace(std::move(label), static_cast<LocationId>(labels_.size()));
    if (inserted) labels_.push_back(it->first);
    location = it->second;
  }
  by_stack_.emplace(stack, location);
  return location;
}

}  // namespace snapscope
