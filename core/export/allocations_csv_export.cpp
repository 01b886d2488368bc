// allocations-csv: one row per allocation — the live ones at the moment, or with a range the ones
// allocated in it — with address, size, alloc/free event and time, origin, location and category.
#include <cstdio>

#include "core/analysis/text_table.h"
#include "core/export/export_common.h"

namespace snapscope {

namespace {

// The event and time of the action that leads into `state` (the alloc for alloc_state, the free
// for free_state); empty cells when there is none.
std::string action_cells(const Timeline& timeline, size_t state) {
  if (state == 0 || state > timeline.action_count()) return ",";
  const size_t action = state - 1;
  const int64_t event = timeline.action_event(action);
  const int64_t time = action_time(timeline, action);
  return (event < 0 ? std::string() : std::to_string(event)) + ',' +
         (time == kNoTime ? std::string() : std::to_string(time));
}

std::string hex_address(uint64_t address) {
  char text[24];
  std::snprintf(text, sizeof text, "0x%llx", static_cast<unsigned long long>(address));
  return text;
}

}  // namespace

void write_allocations_csv(const ExportInput& input, const ExportRequest& request, const std::string& path) {
  const Timeline& timeline = *input.blocks;
  const std::vector<LiveElement> elements =
      request.range ? allocated_in_range(timeline, *request.range) : live_elements(timeline, request.state);
  LocationIndex locations(*input.stacks, request.location);
  const std::shared_ptr<const Classification> categories = categories_for(input, request);
  BufferedFile out(path);
  out << "address,size,alloc_event,alloc_time_us,free_event,free_time_us,origin,location,category\n";
  for (const LiveElement& live : elements) {
    const ReplayElement& element = timeline.element(live.elem);
    out << std::string_view(hex_address(element.addr)) << ',' << element.size << ','
        << std::string_view(action_cells(timeline, timeline.alloc_state(live.elem))) << ','
        << std::string_view(action_cells(timeline, timeline.free_state(live.elem))) << ','
        << std::string_view(origin_name(element.origin)) << ','
        << std::string_view(csv_field(locations.label(locations.location_of(live.stack)))) << ','
        << std::string_view(csv_field(categories->names.name(categories->category(live.elem)))) << '\n';
  }
  out.close();
}

}  // namespace snapscope
