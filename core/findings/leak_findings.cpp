// Leaks (memory that keeps growing over repeated steps, step_leaks.h) and what is live when the
// trace ends, reported as a neutral fact: a trace that stops inside a forward pass ends with the
// activations of a backward it never recorded, which is no leak.
#include <algorithm>
#include <unordered_map>

#include "core/findings/finding_text.h"
#include "core/findings/findings.h"
#include "core/findings/step_boundaries.h"
#include "core/findings/step_leaks.h"
#include "core/util/format.h"

namespace snapscope {
namespace {

constexpr size_t kListedLocations = 5;

struct LocationBytes {
  LocationId location = kUntracedLocation;
  uint64_t bytes = 0, count = 0;
};

// Allocations made during recording and never freed, by location and by category.
struct LiveAtEnd {
  uint64_t bytes = 0, count = 0;
  std::vector<uint64_t> by_category;
  std::vector<LocationBytes> locations;  // bytes descending, then label ascending
  std::optional<uint32_t> largest;
};

LiveAtEnd live_at_end(const Timeline& timeline, const Classification& classification,
                      LocationIndex& locations) {
  LiveAtEnd live;
  live.by_category.assign(classification.names.size(), 0);
  std::unordered_map<LocationId, LocationBytes> by_location;
  for (uint32_t elem = 0; elem < timeline.element_count(); ++elem) {
    const ReplayElement& element = timeline.element(elem);
    if (!made_while_recording(timeline, elem)) continue;
    if (timeline.free_state(elem) != timeline.never_freed()) continue;
    LocationBytes& row = by_location[locations.location_of(element.stack)];
    row.bytes += element.size;
    ++row.count;
    live.by_category[classification.category(elem)] += element.size;
    live.bytes += element.size;
    ++live.count;
    if (!live.largest || element.size > timeline.element(*live.largest).size) live.largest = elem;
  }
  for (auto& [location, row] : by_location) {
    row.location = location;
    live.locations.push_back(row);
  }
  std::sort(live.locations.begin(), live.locations.end(), [&](const auto& a, const auto& b) {
    return a.bytes != b.bytes ? a.bytes > b.bytes : locations.label(a.location) < locations.label(b.location);
  });
  return live;
}

// Why what is live at the end is no leak by itself, for a trace with `steps` step starts.
std::string not_a_leak_reason(size_t steps) {
  if (steps >= 3)
    return "over the " + std::to_string(steps) +
           " steps found, no location kept memory that outlived the following step and kept growing, so "
           "none of it shows as a leak";
  return "telling a leak apart takes memory that outlives the following step in at least two steps, and "
         "this trace shows " +
         std::string(steps == 0   ? "no repeated step"
                     : steps == 1 ? "one step"
                                  : "two steps");
}

}  // namespace

std::optional<Finding> leak_finding(const FindingsInput& input) {
  const std::vector<size_t> starts = step_starts(input.classification);
  LocationIndex locations(input.stacks, LocationRule::FirstUserFrame);
  const StepLeaks leaks = find_step_leaks(input.timeline, input.classification, starts, locations);
  if (leaks.locations.empty()) return std::nullopt;
  Finding finding;
  finding.kind = FindingKind::Leak;
  finding.bytes = leaks.bytes;
  const size_t count = leaks.locations.size();
  finding.title = "Leak: " + format_bytes(double(leaks.bytes)) + " kept step after step by " +
                  std::to_string(count) + (count == 1 ? " location" : " locations");
  finding.text =
      "Over " + std::to_string(starts.size()) +
      " steps, these locations made memory in one step that was still live after the next step "
      "ended, in at least two steps, and what they keep grew up to the end of the trace (none of it "
      "is parameters, gradients, optimizer state or a workspace):";
  for (size_t i = 0; i < std::min(kListedLocations, count); ++i) {
    const LeakingLocation& row = leaks.locations[i];
    finding.text += "\n  " + format_bytes(double(row.bytes)) + " in " + format_grouped(row.count) +
                    " allocations made in " + std::to_string(row.steps) +
                    " steps: " + std::string(locations.label(row.location));
  }
  finding.state = input.timeline.action_count();
  finding.elem = leaks.largest;
  return finding;
}

std::optional<Finding> live_at_end_finding(const FindingsInput& input) {
  const Timeline& timeline = input.timeline;
  LocationIndex locations(input.stacks, LocationRule::FirstUserFrame);
  const LiveAtEnd live = live_at_end(timeline, input.classification, locations);
  if (live.bytes == 0) return std::nullopt;
  const size_t end = timeline.action_count();
  const bool in_forward = end > 0 && input.classification.phases.phase_of(end - 1) == Phase::Forward;
  Finding finding;
  finding.kind = FindingKind::LiveAtEnd;
  finding.bytes = live.bytes;
  finding.title =
      "Live at the end of the trace: " + format_bytes(double(live.bytes)) + " allocated during recording";
  finding.text = format_bytes(double(live.bytes)) + " in " + format_grouped(live.count) +
                 " allocations made while recording is still live when the trace ends, " +
                 where_in_phases(input.classification, end) +
                 ". By category: " + category_breakdown(input.classification.names, live.by_category) + ". ";
  if (in_forward)
    finding.text +=
        "The trace stops inside a forward pass: its activations wait for a backward pass that "
        "was not recorded. ";
  finding.text += "Memory live at the end is not a leak by itself: " +
                  not_a_leak_reason(step_starts(input.classification).size()) + ". Largest locations:";
  for (size_t i = 0; i < std::min(kListedLocations, live.locations.size()); ++i) {
    const LocationBytes& row = live.locations[i];
    finding.text += "\n  " + format_bytes(double(row.bytes)) + " in " + format_grouped(row.count) +
                    " allocations: " + std::string(locations.label(row.location));
  }
  finding.state = end;
  finding.elem = live.largest;
  return finding;
}

}  // namespace snapscope
