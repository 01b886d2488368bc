#include "core/cursor/cursor_analysis.h"

#include <chrono>

namespace snapscope {

CursorAnalysis::CursorAnalysis(const Timeline& of, size_t at_state, bool filter_frames)
    : timeline(&of),
      state(at_state),
      filtered(filter_frames),
      top_down(TreeDirection::TopDown, filter_frames),
      bottom_up(TreeDirection::BottomUp, filter_frames) {}

std::vector<uint32_t> CursorAnalysis::elements_at_location(LocationId location) const {
  std::vector<uint32_t> members;
  for (size_t i = 0; i < live.size(); ++i) {
    if (live_locations[i] == location) members.push_back(live[i].elem);
  }
  return members;
}

CursorAnalysis analyze_cursor(const Timeline& timeline, size_t state, const StackSource& source,
                              bool filter_frames, LocationRule rule) {
  const auto start = std::chrono::steady_clock::now();
  CursorAnalysis result(timeline, state, filter_frames);
  result.live = live_elements(timeline, state);
  result.top_down = build_call_tree(result.live, source, {TreeDirection::TopDown, filter_frames});
  result.bottom_up = build_call_tree(result.live, source, {TreeDirection::BottomUp, filter_frames});
  result.location_rule = rule;
  LocationIndex locations(source, rule);
  result.moment = build_moment_table(result.live, locations, state);
  result.live_locations.reserve(result.live.size());
  for (const LiveElement& element : result.live)
    result.live_locations.push_back(locations.location_of(element.stack));
  result.compute_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  return result;
}

}  // namespace snapscope
