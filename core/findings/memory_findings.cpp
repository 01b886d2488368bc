// The peak, leak candidates and step-to-step growth.
#include <algorithm>
#include <map>
#include <unordered_map>

#include "core/analysis/live_elements.h"
#include "core/analysis/moment_table.h"
#include "core/analysis/source_location.h"
#include "core/analysis/state_mapping.h"
#include "core/findings/finding_text.h"
#include "core/findings/findings.h"
#include "core/util/format.h"

namespace snapscope {
namespace {

constexpr size_t kListedLocations = 5;
constexpr uint64_t kMinStepGrowth = uint64_t{1} << 20;  // smaller drifts are allocator noise

// Annotation names open at `state`'s action, outermost first, and the phase it is in.
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

// Memory that outlives a step by design: not a leak.
bool expected_to_persist(CategoryId category) {
  return category == category_id(Category::Parameter) || category == category_id(Category::OptimizerState) ||
         category == category_id(Category::Gradient) || category == category_id(Category::Workspace);
}

// Step starts: the most repeated annotation's starts, else each forward that follows another phase.
std::vector<size_t> step_starts(const Classification& classification) {
  std::map<std::string, std::vector<size_t>> by_name;
  for (const PlacedAnnotation& annotation : classification.annotations)
    by_name[annotation.name].push_back(annotation.first_action);
  std::vector<size_t> best;
  for (auto& [name, starts] : by_name) {
    // The most repeated range; on a tie, the one that starts first (the step's outermost).
    if (starts.size() > best.size() || (starts.size() == best.size() && !best.empty() && starts[0] < best[0]))
      best = starts;
  }
  if (best.size() >= 2) return best;
  best.clear();
  Phase previous = Phase::None;
  for (const PhaseRegion& region : classification.phases.regions()) {
    if (region.phase == Phase::Forward && previous != Phase::Forward && previous != Phase::None)
      best.push_back(region.first_action);
    if (region.phase == Phase::Forward && previous == Phase::None) best.push_back(region.first_action);
    previous = region.phase;
  }
  return best;
}

// Live bytes in `state` that are not expected to persist (the optimizer's first step makes its
// state once: that is not growth), by location.
std::unordered_map<std::string, uint64_t> transient_bytes_by_location(const Timeline& timeline,
                                                                      const Classification& classification,
                                                                      LocationIndex& locations,
                                                                      size_t state) {
  std::vector<LiveElement> live = live_elements(timeline, state);
  std::erase_if(live,
                [&](const LiveElement& e) { return expected_to_persist(classification.category(e.elem)); });
  std::unordered_map<std::string, uint64_t> bytes;
  for (const MomentRow& row : build_moment_table(live, locations, state).rows) bytes[row.label] = row.bytes;
  return bytes;
}

uint64_t transient_bytes(const Timeline& timeline, const Classification& classification, size_t state) {
  const std::vector<uint64_t> bytes = category_bytes_at(classification, timeline, state);
  uint64_t total = 0;
  for (size_t id = 0; id < bytes.size(); ++id) {
    if (!expected_to_persist(static_cast<CategoryId>(id))) total += bytes[id];
  }
  return total;
}

}  // namespace

std::optional<Finding> peak_finding(const FindingsInput& input) {
  const Timeline& timeline = input.timeline;
  if (timeline.element_count() == 0) return std::nullopt;
  const size_t state = peak_state(timeline);
  const uint64_t peak = timeline.total_at_state(state);
  const std::vector<uint64_t> bytes = category_bytes_at(input.classification, timeline, state);
  Finding finding;
  finding.kind = FindingKind::Peak;
  finding.title = "Peak " + format_bytes(double(peak)) + " at " + moment_phrase(timeline, state);
  finding.text = "The peak is reached at " + moment_phrase(timeline, state) + ", " +
                 where_in_phases(input.classification, state) +
                 ". By category: " + category_breakdown(input.classification.names, bytes) +
                 ". Top sites: " + top_sites(timeline, input.stacks, state, 3) + ".";
  finding.state = state;
  finding.elem = largest_live(timeline, state);
  return finding;
}

std::optional<Finding> leak_finding(const FindingsInput& input) {
  const Timeline& timeline = input.timeline;
  LocationIndex locations(input.stacks, LocationRule::FirstUserFrame);
  std::unordered_map<LocationId, std::pair<uint64_t, uint64_t>> by_location;  // bytes, count
  uint64_t total = 0, persisting = 0;
  std::optional<uint32_t> largest;
  for (uint32_t elem = 0; elem < timeline.element_count(); ++elem) {
    if (!timeline.ever_live(elem) || timeline.in_initial_stack(elem)) continue;  // traced only
    if (timeline.free_state(elem) != timeline.never_freed()) continue;
    const ReplayElement& element = timeline.element(elem);
    if (expected_to_persist(input.classification.category(elem))) {
      persisting += element.size;
      continue;
    }
    auto& [bytes, count] = by_location[locations.location_of(element.stack)];
    bytes += element.size;
    ++count;
    total += element.size;
    if (!largest || element.size > timeline.element(*largest).size) largest = elem;
  }
  if (total == 0) return std::nullopt;
  std::vector<std::pair<LocationId, std::pair<uint64_t, uint64_t>>> rows(by_location.begin(),
                                                                         by_location.end());
  std::sort(rows.begin(), rows.end(), [&](const auto& a, const auto& b) {
    return a.second.first != b.second.first ? a.second.first > b.second.first
                                            : locations.label(a.first) < locations.label(b.first);
  });
  Finding finding;
  finding.kind = FindingKind::Leak;
  finding.title = "Leak candidates: " + format_bytes(double(total)) +
                  " allocated during recording is still live at the end";
  finding.text =
      format_bytes(double(total)) + " in " + std::to_string(rows.size()) +
      " locations was allocated while recording and never freed, and is not parameters, gradients, "
      "optimizer state or a workspace";
  if (persisting > 0)
    finding.text += " (another " + format_bytes(double(persisting)) +
                    " of gradients, optimizer state and library workspaces also stays, as expected)";
  finding.text += ":";
  for (size_t i = 0; i < std::min(kListedLocations, rows.size()); ++i) {
    finding.text += "\n  " + format_bytes(double(rows[i].second.first)) + " in " +
                    format_grouped(rows[i].second.second) +
                    " allocations: " + std::string(locations.label(rows[i].first));
  }
  finding.state = timeline.action_count();
  finding.elem = largest;
  return finding;
}

std::optional<Finding> step_growth_finding(const FindingsInput& input) {
  const Timeline& timeline = input.timeline;
  const std::vector<size_t> starts = step_starts(input.classification);
  if (starts.size() < 2) return std::nullopt;
  const Classification& classification = input.classification;
  std::vector<uint64_t> transient;
  for (const size_t start : starts) transient.push_back(transient_bytes(timeline, classification, start));
  for (size_t i = 1; i < transient.size(); ++i) {
    if (transient[i] < transient[i - 1]) return std::nullopt;
  }
  const size_t first = starts.front(), last = starts.back();
  const uint64_t growth = transient.back() - transient.front();
  if (growth < kMinStepGrowth) return std::nullopt;
  LocationIndex locations(input.stacks, LocationRule::FirstUserFrame);
  const auto before = transient_bytes_by_location(timeline, classification, locations, first);
  const auto after = transient_bytes_by_location(timeline, classification, locations, last);
  std::vector<std::pair<std::string, uint64_t>> grown;
  for (const auto& [label, bytes] : after) {
    const auto was = before.find(label);
    const uint64_t old = was == before.end() ? 0 : was->second;
    if (bytes > old) grown.emplace_back(label, bytes - old);
  }
  std::sort(grown.begin(), grown.end(), [](const auto& a, const auto& b) {
    return a.second != b.second ? a.second > b.second : a.first < b.first;
  });
  Finding finding;
  finding.kind = FindingKind::StepGrowth;
  const size_t steps = starts.size() - 1;
  finding.title = "Memory grows by " + format_bytes(double(growth)) + " over " + std::to_string(steps) +
                  (steps == 1 ? " step" : " steps");
  finding.text =
      "Live memory other than parameters, gradients, optimizer state and workspaces, at the start of "
      "each of " +
      std::to_string(starts.size()) + " steps, never drops: " + format_bytes(double(transient.front())) +
      " at " + moment_phrase(timeline, first) + ", " + format_bytes(double(transient.back())) + " at " +
      moment_phrase(timeline, last) + ". What grew:";
  for (size_t i = 0; i < std::min(kListedLocations, grown.size()); ++i)
    finding.text += "\n  +" + format_bytes(double(grown[i].second)) + ": " + grown[i].first;
  finding.state = last;
  finding.elem = largest_live(timeline, last);
  return finding;
}

}  // namespace snapscope
