#include "core/allocator/event_text.h"

#include <cmath>
#include <cstdio>

namespace snapscope {

std::string memviz_size(uint64_t bytes) {
  static const char* const kUnits[] = {"", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei", "Zi"};
  double value = static_cast<double>(bytes);
  char buffer[96];
  for (const char* unit : kUnits) {
    if (std::fabs(value) < 1024.0) {
      std::snprintf(buffer, sizeof buffer, "%.1f%sB (%llu bytes)", value, unit,
                    static_cast<unsigned long long>(bytes));
      return buffer;
    }
    value /= 1024.0;
  }
  std::snprintf(buffer, sizeof buffer, "%.1fYiB", value);
  return buffer;
}

std::string memviz_address(Action action, uint64_t addr) {
  const bool segment = action == Action::SegmentAlloc || action == Action::SegmentFree ||
                       action == Action::SegmentMap || action == Action::SegmentUnmap;
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%c%llx", segment ? 's' : 'b', static_cast<unsigned long long>(addr));
  return buffer;
}

namespace {

std::string pad(std::string text, size_t width) {
  if (text.size() < width) text.append(width - text.size(), ' ');
  return text;
}

}  // namespace

std::string format_event_line(const AllocatorEvent& event, uint64_t stream_name) {
  const std::string stream = " (stream " + std::to_string(stream_name) + ")";
  switch (event.action) {
    case Action::Oom:
      return "OOM (requested " + memviz_size(event.size) + ", Device has " + memviz_size(event.addr) +
             " memory free)" + stream;
    case Action::Snapshot:
      return "snapshot";
    default:
      return pad(std::string(action_name(event.action)), 14) + " " +
             pad(memviz_address(event.action, event.addr), 18) + " " + memviz_size(event.size) + stream;
  }
}

}  // namespace snapscope
