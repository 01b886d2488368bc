// What the recording leaves out: a truncated history, frees of memory never seen allocated,
// missing or C++-only stacks, no phases to classify by.
#include <unordered_set>

#include "core/analysis/state_mapping.h"
#include "core/findings/findings.h"
#include "core/util/format.h"

namespace snapscope {
namespace {

constexpr const char* kRecordHint =
    "record with torch.cuda.memory._record_memory_history(max_entries=..., context=\"all\", stacks=\"all\")";

struct StackSummary {
  size_t traced = 0, with_stack = 0;
  bool python_frame = false;
};

StackSummary summarize_stacks(const Timeline& timeline, const StackSource& stacks) {
  StackSummary summary;
  std::unordered_set<StackId> seen;
  for (uint32_t elem = 0; elem < timeline.element_count(); ++elem) {
    const ReplayElement& element = timeline.element(elem);
    if (element.origin != Origin::Traced) continue;
    ++summary.traced;
    if (element.stack == 0) continue;
    ++summary.with_stack;
    if (summary.python_frame || !seen.insert(element.stack).second) continue;
    for (const FrameId id : stacks.stack_frames(element.stack)) {
      if (stacks.frame(id).filename.ends_with(".py")) {
        summary.python_frame = true;
        break;
      }
    }
  }
  return summary;
}

Finding caveat(std::string title, std::string text, std::optional<size_t> state = std::nullopt,
               uint64_t bytes = 0) {
  Finding finding;
  finding.kind = FindingKind::Caveat;
  finding.bytes = bytes;
  finding.title = std::move(title);
  finding.text = std::move(text);
  finding.state = state;
  return finding;
}

std::optional<Finding> missing_start(const Timeline& timeline) {
  uint64_t bytes = 0, count = 0;
  std::optional<uint32_t> first;
  for (uint32_t elem = 0; elem < timeline.element_count(); ++elem) {
    const ReplayElement& element = timeline.element(elem);
    if (element.origin != Origin::FreeWithoutAlloc) continue;
    bytes += element.size;
    ++count;
    if (!first || element.free_event < timeline.element(*first).free_event) first = elem;
  }
  if (count == 0) return std::nullopt;
  const int64_t first_event = timeline.element(*first).free_event;
  Finding finding = caveat(
      "The trace starts mid-run: " + format_grouped(count) + " frees of memory it never saw allocated",
      "The first such free is event #" + std::to_string(first_event) + "; " + format_grouped(count) +
          " blocks (" + format_bytes(double(bytes)) +
          ") were allocated before recording began or before the history's "
          "first kept event, so they have no allocation stack. Start recording earlier to see who made them.",
      state_after_event(timeline, first_event), bytes);
  finding.elem = *first;
  return finding;
}

}  // namespace

std::vector<Finding> recording_caveats(const FindingsInput& input) {
  std::vector<Finding> caveats;
  const Timeline& timeline = input.timeline;
  if (input.overflow_warning)
    caveats.push_back(caveat("The allocator's history was truncated",
                             *input.overflow_warning + ". Raise max_entries when recording."));
  if (auto missing = missing_start(timeline)) caveats.push_back(std::move(*missing));
  const StackSummary stacks = summarize_stacks(timeline, input.stacks);
  if (stacks.traced > 0 && stacks.with_stack == 0) {
    caveats.push_back(caveat("No stacks were recorded",
                             "None of the " + format_grouped(stacks.traced) +
                                 " traced allocations carries a stack, so locations and most categories are "
                                 "unknown: " +
                                 kRecordHint + "."));
  } else if (stacks.with_stack > 0 && !stacks.python_frame) {
    caveats.push_back(
        caveat("Stacks hold only C++ frames",
               "No Python frame was recorded, so locations fall back to ATen operators and autograd "
               "nodes: " +
                   std::string(kRecordHint) + " from the Python process."));
  }
  if (stacks.traced > 0 && input.classification.phases.regions().empty()) {
    caveats.push_back(caveat("No phases found",
                             "Neither annotations nor stacks show a forward, backward or optimizer step, so "
                             "categories rest on lifetimes alone and most are unknown."));
  }
  return caveats;
}

}  // namespace snapscope
