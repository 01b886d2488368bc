#include "core/findings/finding_text.h"

#include <algorithm>
#include <cstdio>
#include <numeric>

#include "core/analysis/live_elements.h"
#include "core/analysis/moment_table.h"
#include "core/analysis/state_mapping.h"
#include "core/util/format.h"

namespace snapscope {

std::string percent(uint64_t part, uint64_t whole) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f%%", whole == 0 ? 0.0 : 100.0 * double(part) / double(whole));
  return text;
}

std::string where_in_phases(const Classification& classification, size_t state) {
  if (state == 0) return "before any phase";
  const size_t action = state - 1;
  std::string names;
  for (const PlacedAnnotation& annotation : classification.annotations) {
    if (annotation.first_action <= action && action < annotation.end_action)
      names += (names.empty() ? "" : " > ") + annotation.name;
  }
  const Phase phase = classification.phases.phase_of(action);
  std::string text = phase == Phase::None ? "" : std::string("in the ") + phase_name(phase);
  if (!names.empty()) text += (text.empty() ? "inside " : ", inside ") + names;
  return text.empty() ? "in no recognised phase" : text;
}

std::string moment_phrase(const Timeline& timeline, size_t state) {
  const int64_t event = event_of_state(timeline, state);
  std::string text = event < 0 ? std::string("the start of the trace") : "event #" + std::to_string(event);
  const ActionTimes& times = timeline.input().action_time_us;
  if (event >= 0 && state - 1 < times.size() && times.front() != kNoTime && times[state - 1] != kNoTime) {
    char seconds[48];
    std::snprintf(seconds, sizeof seconds, " (%.3f s into the trace)",
                  double(times[state - 1] - times.front()) / 1e6);
    text += seconds;
  }
  return text;
}

std::string category_breakdown(const CategoryNames& names, std::span<const uint64_t> bytes) {
  std::vector<size_t> order(bytes.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return bytes[a] > bytes[b]; });
  const uint64_t total = std::accumulate(bytes.begin(), bytes.end(), uint64_t{0});
  std::string text;
  for (const size_t id : order) {
    if (bytes[id] == 0) continue;
    text += (text.empty() ? "" : ", ") + std::string(names.name(static_cast<CategoryId>(id))) + " " +
            format_bytes(double(bytes[id])) + " (" + percent(bytes[id], total) + ")";
  }
  return text.empty() ? "nothing live" : text;
}

std::string top_sites(const Timeline& timeline, const StackSource& stacks, size_t state, size_t n) {
  LocationIndex locations(stacks, LocationRule::FirstUserFrame);
  const MomentTable table = build_moment_table(live_elements(timeline, state), locations, state);
  std::string text;
  for (size_t i = 0; i < std::min(n, table.rows.size()); ++i) {
    text += (i == 0 ? "" : ", ") + table.rows[i].label + " " + format_bytes(double(table.rows[i].bytes));
  }
  return text;
}

std::optional<uint32_t> largest_live(const Timeline& timeline, size_t state) {
  std::optional<uint32_t> best;
  uint64_t best_size = 0;
  for (const LiveAllocation& allocation : timeline.live_at(state)) {
    if (!best || allocation.size > best_size) {
      best = allocation.elem;
      best_size = allocation.size;
    }
  }
  return best;
}

}  // namespace snapscope
