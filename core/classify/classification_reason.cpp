// classification_reason: the inspector's and the report's one-line "why this category".
#include <string>

#include "core/analysis/frame_kind.h"
#include "core/analysis/source_location.h"
#include "core/classify/classifier.h"

namespace snapscope {
namespace {

struct ReasonContext {
  const Classification& classification;
  const Timeline& timeline;
  uint32_t elem;
  std::string location;      // where it was allocated (the location rule), or the untraced label
  std::string alloc_region;  // the phase it was allocated in
  std::string free_text;     // "freed at event N" / "never freed"
  std::string free_event;    // "event N" or ""
};

std::string event_text(const Timeline& timeline, size_t free_state) {
  if (free_state == timeline.never_freed()) return "";
  return "event #" + std::to_string(timeline.action_event(free_state - 1));
}

std::string workspace_text(const ReasonContext& c, const StackSource& stacks) {
  for (const FrameId id : stacks.stack_frames(c.timeline.element(c.elem).stack)) {
    const FrameRef frame = stacks.frame(id);
    const std::string name = short_function_name(frame.name);
    if (name.find("orkspace") != std::string::npos || name.find("c10d::") != std::string::npos ||
        name.find("NCCL") != std::string::npos || name.find("nccl") != std::string::npos)
      return "allocated by " + name + ": a library workspace or communication buffer, not a tensor";
  }
  return "allocated by a workspace or communication frame";
}

std::string rule_text(const ReasonContext& c) {
  const Classification& k = c.classification;
  const size_t index = k.rule_of.empty() ? 0 : k.rule_of[c.elem];
  if (index >= k.rules.rules.size()) return "a user rule matched";
  const CategoryRule& rule = k.rules.rules[index];
  return "rule " + std::to_string(index + 1) + " of " + k.rules.file + ": " + rule_target_name(rule.target) +
         " matches \"" + rule.pattern + "\"";
}

std::string evidence_text(const ReasonContext& c) {
  const std::string freed = c.free_event.empty() ? "" : " (freed at " + c.free_event + ")";
  switch (c.classification.reasons[c.elem]) {
    case Reason::NeverLive:
      return "never live in this timeline";
    case Reason::Rule:
    case Reason::WorkspaceFrame:
      return "";
    case Reason::PreexistingParameters:
      return c.classification.optimizer_state_traced
                 ? "allocated before recording, alive throughout: likely parameters (the optimizer creates "
                   "its state during the trace, so this is not optimizer state)"
                 : "allocated before recording, alive throughout: likely parameters (or buffers)";
    case Reason::PreexistingWithOptimizerState:
      return "allocated before recording, alive throughout: parameters, or optimizer state from earlier "
             "steps (the optimizer step in this trace creates no state)";
    case Reason::PreexistingWithGradients:
      return "allocated before recording, alive throughout: parameters, or gradients kept across steps "
             "(the backward pass in this trace creates no gradient tensors)";
    case Reason::PreexistingMatchesGradient:
      return "allocated before recording, alive throughout, and the backward pass makes a gradient of its "
             "size: a parameter";
    case Reason::PreexistingWithoutGradient:
      return "allocated before recording, alive throughout, but no gradient of its size is made: a buffer, "
             "a frozen parameter or an input";
    case Reason::PreexistingReplacedState:
      return "allocated before recording, freed inside the optimizer step at " + c.free_event +
             ", which allocates state that outlives it: optimizer state the step replaced";
    case Reason::PreexistingFreedZeroGrad:
      return "allocated before recording, freed by zero_grad at " + c.free_event +
             ": a gradient of the "
             "previous step";
    case Reason::PreexistingFreedBackward:
      return "allocated before recording, freed in the backward pass at " + c.free_event +
             ": likely an activation of a forward that began before recording";
    case Reason::PreexistingFreed:
      return "allocated before recording, freed at " + c.free_event + ": no evidence of what it held";
    case Reason::OptimizerStateAliveAfter:
      return "allocated inside " + c.alloc_region + ", alive after it ended" + freed;
    case Reason::OptimizerStateNeverFreed:
      return "allocated inside " + c.alloc_region + ", alive across steps (never freed)";
    case Reason::OptimizerTemporary:
      return "allocated and freed inside " + c.alloc_region + freed;
    case Reason::ZeroGradTemporary:
      return "allocated and freed inside zero_grad" + freed;
    case Reason::ZeroGradAlive:
      return "allocated in zero_grad and kept: a zeroed gradient";
    case Reason::BackwardGradient:
      return "allocated by " + c.location + " in the backward pass, alive after it ended" + freed;
    case Reason::BackwardGradientAtEnd:
      return "allocated by " + c.location +
             " in the backward pass, still alive when the trace ends: "
             "likely a gradient";
    case Reason::BackwardTemporary:
      return "allocated by " + c.location + " and freed inside the backward pass" + freed;
    case Reason::ForwardActivation:
      return "made in the forward (" + c.location + "), freed in the backward pass at " + c.free_event;
    case Reason::ForwardTemporary:
      return "allocated and freed inside the forward (" + c.location + ")" + freed;
    case Reason::ForwardSurvivesBackward:
      return "made in the forward (" + c.location +
             "), still alive after the backward pass: an output or "
             "a cache, not an activation";
    case Reason::ForwardNoBackward:
      return "made in the forward (" + c.location + "), alive to the end with no backward pass after it";
    case Reason::NoEvidence:
      return "no stack recorded and no phase annotation covers it";
  }
  return "";
}

}  // namespace

std::string classification_reason(const Classification& classification, const Timeline& timeline,
                                  const StackSource& stacks, uint32_t elem) {
  if (elem >= classification.categories.size()) return "";
  const ReplayElement& element = timeline.element(elem);
  const size_t alloc_state = timeline.alloc_state(elem);
  const bool traced = timeline.ever_live(elem) && alloc_state > 0;
  LocationIndex locations(stacks, LocationRule::FirstUserFrame);
  ReasonContext context{classification, timeline, elem, "", "", "", ""};
  context.location = std::string(locations.label(locations.location_of(traced ? element.stack : StackId{0})));
  if (traced) {
    const uint32_t region = classification.phases.region_of(alloc_state - 1);
    context.alloc_region = classification.phases.describe(region, classification.annotations);
  }
  if (timeline.ever_live(elem)) context.free_event = event_text(timeline, timeline.free_state(elem));
  std::string why;
  switch (classification.reasons[elem]) {
    case Reason::Rule:
      why = rule_text(context);
      break;
    case Reason::WorkspaceFrame:
      why = workspace_text(context, stacks);
      break;
    default:
      why = evidence_text(context);
  }
  return std::string(classification.category_name(elem)) + ": " + why;
}

}  // namespace snapscope
