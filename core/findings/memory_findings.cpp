// The peak and step-to-step growth (leak_findings.cpp: leaks and what is live at the end).
#include <algorithm>
#include <unordered_map>

#include "core/analysis/live_elements.h"
#include "core/analysis/moment_table.h"
#include "core/analysis/source_location.h"
#include "core/analysis/state_mapping.h"
#include "core/findings/finding_text.h"
#include "core/findings/findings.h"
#include "core/findings/step_boundaries.h"
#include "core/util/format.h"

namespace snapscope {
namespace {

constexpr size_t kListedLocations = 5;
constexpr uint64_t kMinStepGrowth = uint64_t{1} << 20;  // smaller drifts are allocator noise

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
  finding.bytes = peak;
  finding.title = "Peak " + format_bytes(double(peak)) + " at " + moment_phrase(timeline, state);
  finding.text = "The peak is reached at " + moment_phrase(timeline, state) + ", " +
                 where_in_phases(input.classification, state) +
                 ". By category: " + category_breakdown(input.classification.names, bytes) +
                 ". Top sites: " + top_sites(timeline, input.stacks, state, 3) + ".";
  finding.state = state;
  finding.elem = largest_live(timeline, state);
  return finding;
}

std::optional<Finding> step_growth_finding(const FindingsInput& input) {
  const Timeline& timeline = input.timeline;
  const std::vector<size_t> starts = step_starts(input.classification);
  // Two step-to-step comparisons at least: one step after another can differ for one-off reasons
  // (a first step that warms caches up), growth that repeats cannot.
  if (starts.size() < 3) return std::nullopt;
  const Classification& classification = input.classification;
  std::vector<uint64_t> transient;
  for (const size_t start : starts) transient.push_back(transient_bytes(timeline, classification, start));
  for (size_t i = 1; i < transient.size(); ++i) {
    if (transient[i] < transient[i - 1]) return std::nullopt;
  }
  // Still growing at the last step: memory that ramps up over the first steps and then levels
  // off (a cache, a queue of the last few steps' tensors) is a steady state, not growth.
  if (transient.back() == transient[transient.size() - 2]) return std::nullopt;
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
  finding.bytes = growth;
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
