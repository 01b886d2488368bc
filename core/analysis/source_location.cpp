#include "core/analysis/source_location.h"

namespace snapscope {

std::string format_location(const FrameRef& frame) {
  return location_label(frame.name, frame.filename, frame.line);
}

LocationIndex::LocationIndex(const StackSource& source, LocationRule rule)
    : source_(source), rule_(rule), noise_(source) {
  labels_.emplace_back(kUntracedLabel);
  compiled_frames_.emplace_back();
  by_label_.emplace(labels_.back(), kUntracedLocation);
  by_stack_.emplace(StackId{0}, kUntracedLocation);
}

LocationId LocationIndex::location_of(StackId stack) {
  if (auto it = by_stack_.find(stack); it != by_stack_.end()) return it->second;
  LocationId location = kUntracedLocation;
  if (const std::optional<Placed> placed = location_frame(stack)) {
    std::string label = format_location(source_.frame(placed->frame));
    if (placed->compiled) label += kCompiledSuffix;
    auto [it, inserted] = by_label_.try_emplace(std::move(label), static_cast<LocationId>(labels_.size()));
    if (inserted) {
      labels_.push_back(it->first);
      compiled_frames_.push_back(placed->compiled ? format_location(source_.frame(*placed->compiled)) : "");
    }
    location = it->second;
  }
  by_stack_.emplace(stack, location);
  return location;
}

std::optional<LocationIndex::Placed> LocationIndex::location_frame(StackId stack) {
  const std::span<const FrameId> frames = source_.stack_frames(stack);
  if (frames.empty()) return std::nullopt;
  if (rule_ == LocationRule::FirstUserFrame) {
    const size_t at = noise_.location_index(frames);
    const size_t compiled = noise_.compiled_index(frames, at);
    return Placed{frames[at], compiled < frames.size() ? std::optional(frames[compiled]) : std::nullopt};
  }
  // Literal memory_viz: the innermost kept frame, generated or not.
  noise_.kept_frames(frames, scratch_);
  return Placed{scratch_.front(), std::nullopt};
}

}  // namespace snapscope
