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
    case Reason::ModelConstruction:
      return "allocated by " + c.location +
             " through a layer's constructor, Module.to / .cuda, load_state_dict, or FSDP / ZeRO-3 gathering "
             "sharded parameters: model weights";
    case Reason::PreexistingNoTraining:
      return "allocated before recording with no stack, alive throughout, and the trace shows no backward "
             "pass, optimizer step or gradient: weights, a KV cache, a CUDA-graph pool and a data buffer all "
             "live this long";
    case Reason::PreexistingMatchesGradient:
      return "allocated before recording, alive throughout, and a gradient of its size exists: a parameter";
    case Reason::PreexistingWithoutGradient:
      return "allocated before recording with no stack, alive throughout, and no gradient or optimizer state "
             "of its size: a buffer, a frozen parameter or an input";
    case Reason::PreexistingFrozen:
      return "allocated before recording with no stack, alive throughout a training run, and no gradient of "
             "its size: a frozen parameter or a model buffer (weights outlive every step; a data buffer or "
             "a cache would too, so this is a likely answer, not a certain one)";
    case Reason::PreexistingPairedParameter:
      return "allocated before recording with no stack, alive throughout; no gradient is allocated in the "
             "trace, so each parameter's gradient is a block of the same size from before it: one of such a "
             "pair, counted as the parameter";
    case Reason::PreexistingPairedGradient:
      return "allocated before recording with no stack, alive throughout; the backward accumulates into "
             "gradients from before recording, each beside a parameter of its size: counted as the gradient";
    case Reason::PreexistingInPlaceState:
      return "allocated before recording with no stack, alive throughout, the size of a gradient whose "
             "parameter is already counted; the optimizer step allocates no state, so it updates its state "
             "in place: optimizer state";
    case Reason::PreexistingStackOptimizer:
      return "allocated before recording by the optimizer step (its own stack: " + c.location +
             "), alive throughout: optimizer state";
    case Reason::PreexistingStackBackward:
      return "allocated before recording by the backward pass (its own stack: " + c.location +
             "), alive throughout: a gradient";
    case Reason::PreexistingStackConstruction:
      return "allocated before recording by " + c.location +
             " through a layer's constructor, Module.to / .cuda or load_state_dict: model weights";
    case Reason::PreexistingStackForward:
      return "allocated before recording by a forward (" + c.location +
             "), alive throughout: an output, a cache or a buffer";
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
      return "made in the forward (" + c.location +
             "), alive to the end; the trace shows no backward pass or optimizer step at all";
    case Reason::ForwardAtEnd:
      return "made in the forward (" + c.location +
             "), alive when the trace ends: an activation saved for a backward pass the trace does not "
             "contain";
    case Reason::ForwardBackwardUnfinished:
      return "made in the forward (" + c.location +
             "), still alive when the trace ends inside the backward pass that frees such activations";
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
  // A block from the segment snapshot keeps its allocation stack (a free's stack says nothing of
  // where the memory was made).
  const bool own_stack = traced || element.origin == Origin::SnapshotBlock;
  context.location =
      std::string(locations.label(locations.location_of(own_stack ? element.stack : StackId{0})));
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
  const Strength strength = classification.strength(elem);
  const std::string qualifier = strength == Strength::Likely ? " (likely)" : "";
  return std::string(classification.category_name(elem)) + qualifier + ": " + why;
}

}  // namespace snapscope
