// Shared export helpers (see export_common.h).
#include "core/export/export_common.h"

#include <filesystem>

namespace snapscope {

std::vector<LiveElement> allocated_in_range(const Timeline& timeline, EventRange range) {
  std::vector<LiveElement> out;
  for (uint32_t elem = 0; elem < timeline.element_count(); ++elem) {
    const ReplayElement& element = timeline.element(elem);
    if (element.origin != Origin::Traced || element.alloc_event < 0) continue;
    if (range.contains(element.alloc_event)) out.push_back({elem, element.size, allocation_stack(element)});
  }
  return out;
}

int64_t action_time(const Timeline& timeline, size_t action) {
  const ActionTimes& times = timeline.input().action_time_us;
  return action < times.size() ? times[action] : kNoTime;
}

std::string_view known_file(const FrameRef& frame) {
  return frame.filename == "??" ? std::string_view() : std::string_view(frame.filename);
}

std::optional<int64_t> known_line(const FrameRef& frame) {
  if (known_file(frame).empty() || frame.line <= 0) return std::nullopt;
  return frame.line;
}

std::string display_name(const ExportInput& input) {
  const std::filesystem::path path(input.file);
  const std::string name = path.filename().string();
  return name.empty() ? path.parent_path().filename().string() : name;
}

std::shared_ptr<const Classification> categories_for(const ExportInput& input, const ExportRequest& request) {
  if (request.categories) return request.categories;
  return std::make_shared<const Classification>(
      classify_allocations({*input.blocks, *input.stacks, input.annotations, nullptr}));
}

}  // namespace snapscope
