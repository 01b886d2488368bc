#include "core/findings/step_leaks.h"

#include <algorithm>
#include <set>
#include <unordered_map>

#include "core/findings/step_boundaries.h"

namespace snapscope {
namespace {

// What one location keeps across step boundaries.
struct Kept {
  uint64_t at_end = 0;         // made before the last step, live at the end
  uint64_t at_last_start = 0;  // made before the step before the last, live at the last step's start
  uint64_t count = 0;
  std::set<size_t> steps;  // the steps that made the `at_end` bytes
  std::optional<uint32_t> largest;
};

// The step whose actions include `action`; nullopt before the first step.
std::optional<size_t> step_of(std::span<const size_t> starts, size_t action) {
  const auto after = std::upper_bound(starts.begin(), starts.end(), action);
  if (after == starts.begin()) return std::nullopt;
  return static_cast<size_t>(after - starts.begin() - 1);
}

void keep(Kept& kept, const Timeline& timeline, uint32_t elem, size_t step, size_t last_start, size_t steps) {
  const uint64_t size = timeline.element(elem).size;
  const size_t freed = timeline.free_state(elem);
  // The step before the last ends at the last start; this allocation outlived the next step if
  // it was made two steps or more before the last and is live at the last start.
  if (step + 2 < steps && freed > last_start) kept.at_last_start += size;
  if (step + 1 < steps && freed == timeline.never_freed()) {
    kept.at_end += size;
    ++kept.count;
    kept.steps.insert(step);
    if (!kept.largest || size > timeline.element(*kept.largest).size) kept.largest = elem;
  }
}

}  // namespace

StepLeaks find_step_leaks(const Timeline& timeline, const Classification& classification,
                          std::span<const size_t> starts, LocationIndex& locations) {
  StepLeaks leaks;
  if (starts.size() < 3) return leaks;
  std::unordered_map<LocationId, Kept> by_location;
  for (uint32_t elem = 0; elem < timeline.element_count(); ++elem) {
    if (!made_while_recording(timeline, elem)) continue;
    if (expected_to_persist(classification.category(elem))) continue;
    const std::optional<size_t> step = step_of(starts, timeline.alloc_state(elem) - 1);
    if (!step) continue;  // set-up before the first step
    keep(by_location[locations.location_of(timeline.element(elem).stack)], timeline, elem, *step,
         starts.back(), starts.size());
  }
  for (const auto& [location, kept] : by_location) {
    if (kept.steps.size() < 2 || kept.at_end <= kept.at_last_start) continue;
    leaks.locations.push_back({location, kept.at_end, kept.count, kept.steps.size()});
    leaks.bytes += kept.at_end;
    if (!leaks.largest || timeline.element(*kept.largest).size > timeline.element(*leaks.largest).size)
      leaks.largest = kept.largest;
  }
  std::sort(leaks.locations.begin(), leaks.locations.end(), [&](const auto& a, const auto& b) {
    return a.bytes != b.bytes ? a.bytes > b.bytes : locations.label(a.location) < locations.label(b.location);
  });
  return leaks;
}

}  // namespace snapscope
