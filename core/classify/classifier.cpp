#include "core/classify/classifier.h"

#include <algorithm>
#include <initializer_list>
#include <optional>
#include <stdexcept>
#include <unordered_map>

#include "core/analysis/frame_kind.h"
#include "core/analysis/source_location.h"
#include "core/classify/stackless_matcher.h"
#include "core/util/parallel_jobs.h"

namespace snapscope {
namespace {

constexpr size_t kCancelCheckInterval = 1 << 16;
constexpr int kNoRule = -1;
constexpr size_t kParallelThreshold = 1 << 18;  // below this a thread costs more than it saves

// The rule file compiled once: its frame and location globs split by target, each frame and
// each location matched against them once (the first matching rule remembered), so a stack costs
// a lookup per frame instead of every rule against every frame (issue 39: 10,000 rules on a 7k
// allocation snapshot took 40 s). The first rule in file order still wins.
class RuleMatcher {
 public:
  RuleMatcher(const CategoryRules& rules, const StackSource& stacks, std::span<const PlacedAnnotation> placed)
      : stacks_(stacks), locations_(stacks, LocationRule::FirstUserFrame) {
    annotation_ranges_.resize(rules.rules.size());
    for (size_t r = 0; r < rules.rules.size(); ++r) {
      const CategoryRule& rule = rules.rules[r];
      if (rule.target == RuleTarget::Frame) frame_globs_.push_back({rule.pattern, static_cast<int>(r)});
      if (rule.target == RuleTarget::Location) location_globs_.push_back({rule.pattern, static_cast<int>(r)});
      if (rule.target != RuleTarget::Annotation) continue;
      annotation_rules_.push_back(r);
      for (const PlacedAnnotation& annotation : placed) {
        if (annotation.first_action < annotation.end_action && glob_match(rule.pattern, annotation.name))
          annotation_ranges_[r].emplace_back(annotation.first_action, annotation.end_action);
      }
    }
  }

  // The first rule (file order) matching an allocation made by `action` with `stack`.
  int first_match(StackId stack, std::optional<size_t> action) {
    const int by_stack = stack_match(stack);
    if (!action) return by_stack;
    for (const size_t r : annotation_rules_) {
      if (by_stack != kNoRule && static_cast<size_t>(by_stack) <= r) break;
      if (inside(r, *action)) return static_cast<int>(r);
    }
    return by_stack;
  }

 private:
  struct Glob {
    std::string_view pattern;
    int rule;
  };

  // The first of `globs` (in file order) matching any of `texts`.
  static int first_glob(const std::vector<Glob>& globs, std::initializer_list<std::string_view> texts) {
    for (const Glob& glob : globs) {
      for (const std::string_view text : texts) {
        if (glob_match(glob.pattern, text)) return glob.rule;
      }
    }
    return kNoRule;
  }

  bool inside(size_t rule, size_t action) const {
    for (const auto& [first, end] : annotation_ranges_[rule]) {
      if (first <= action && action < end) return true;
    }
    return false;
  }

  int frame_match(FrameId id) {
    auto [it, inserted] = by_frame_.try_emplace(id, kNoRule);
    if (inserted && !frame_globs_.empty()) {
      const FrameRef frame = stacks_.frame(id);
      const std::string label = location_label(frame.name, frame.filename, frame.line);
      it->second = first_glob(frame_globs_, {frame.name, label});
    }
    return it->second;
  }

  int location_match(StackId stack) {
    const LocationId location = locations_.location_of(stack);
    auto [it, inserted] = by_location_.try_emplace(location, kNoRule);
    if (inserted) it->second = first_glob(location_globs_, {locations_.label(location)});
    return it->second;
  }

  // The lowest rule index among the location's rule and every frame's.
  int stack_match(StackId stack) {
    auto [it, inserted] = by_stack_.try_emplace(stack, kNoRule);
    if (!inserted) return it->second;
    int best = location_globs_.empty() ? kNoRule : location_match(stack);
    if (!frame_globs_.empty()) {
      for (const FrameId id : stacks_.stack_frames(stack)) {
        const int rule = frame_match(id);
        if (rule != kNoRule && (best == kNoRule || rule < best)) best = rule;
      }
    }
    return it->second = best;
  }

  const StackSource& stacks_;
  LocationIndex locations_;
  std::vector<Glob> frame_globs_, location_globs_;
  std::vector<size_t> annotation_rules_;
  std::unordered_map<FrameId, int> by_frame_;
  std::unordered_map<LocationId, int> by_location_;
  std::unordered_map<StackId, int> by_stack_;
  std::vector<std::vector<std::pair<size_t, size_t>>> annotation_ranges_;
};

struct Verdict {
  Category category;
  Reason reason;
};

// Allocated before recording: on the initial stack, or the element memory_viz promotes to the
// only action of a trace without actions.
bool from_before_recording(const Timeline& timeline, uint32_t elem) {
  const ReplayInput& input = timeline.input();
  return timeline.in_initial_stack(elem) ||
         (input.synthetic_action && !input.actions.empty() && input.actions.front().elem == elem);
}

struct Lifetime {
  std::optional<size_t> alloc_action;  // empty: allocated before recording
  std::optional<size_t> free_action;   // empty: never freed
};

Lifetime lifetime_of(const Timeline& timeline, uint32_t elem) {
  Lifetime lifetime;
  const size_t alloc_state = timeline.alloc_state(elem), free_state = timeline.free_state(elem);
  if (alloc_state > 0) lifetime.alloc_action = alloc_state - 1;
  if (free_state != timeline.never_freed()) lifetime.free_action = free_state - 1;
  return lifetime;
}

// One per thread for the traced allocations (each writes only its own elements' verdicts),
// then one for the allocations from before recording.
class Classifier {
 public:
  bool saw_optimizer_state = false, saw_gradients = false;  // merged into out_ after the pass

  Classifier(const ClassifyInput& input, Classification& out) : input_(input), out_(out) {
    // backward_follows_[r]: some region after r is a backward pass (one pass from the end, so
    // each allocation's question is O(1) however many steps the trace has).
    const auto& regions = out_.phases.regions();
    backward_follows_.assign(regions.size() + 1, false);
    for (size_t r = regions.size(); r-- > 0;)
      backward_follows_[r] =
          backward_follows_[r + 1] || (r + 1 < regions.size() && regions[r + 1].phase == Phase::Backward);
    first_backward_ = std::find_if(regions.begin(), regions.end(), [](const PhaseRegion& region) {
                        return region.phase == Phase::Backward;
                      }) != regions.end();
    // Training shows in an optimizer or zero_grad annotation even where it covers no allocation,
    // and in the memory from before recording (optimizer state, gradients).
    // Any device's: one process steps the optimizer for all of its devices.
    for (const AnnotationRecord& annotation : input_.annotations) {
      const Phase phase = annotation_phase(annotation.name);
      training_seen_ = training_seen_ || (phase != Phase::None && phase != Phase::Forward);
    }
    for (const uint32_t elem : input_.timeline.input().initial_stack) {
      if (training_seen_) break;
      const Phase shown = out_.phases.alloc_evidence(elem);
      training_seen_ = shown == Phase::Optimizer || shown == Phase::Backward || shown == Phase::ZeroGrad;
    }
  }

  Verdict traced(uint32_t elem, const Lifetime& life) {
    if (out_.phases.workspace_evidence(elem)) return {Category::Workspace, Reason::WorkspaceFrame};
    const size_t alloc = *life.alloc_action;
    Phase phase = out_.phases.alloc_evidence(elem);
    if (phase == Phase::None) phase = out_.phases.phase_of(alloc);
    // Module.to / a layer's constructor / load_state_dict, or FSDP gathering a layer's shards
    // for its forward or backward: weights.
    if ((phase == Phase::Forward || phase == Phase::Backward) && out_.phases.construction_evidence(elem))
      return {Category::Parameter, Reason::ModelConstruction};
    const uint32_t region = alloc_region(alloc);
    const size_t region_end =
        region == kNoIndex ? input_.timeline.action_count() : out_.phases.regions()[region].end_action;
    const bool freed_inside = life.free_action && *life.free_action < region_end;
    const bool last_region = region == kNoIndex || region + 1 == out_.phases.regions().size();
    switch (phase) {
      case Phase::Optimizer:
        if (freed_inside) return {Category::Temporary, Reason::OptimizerTemporary};
        saw_optimizer_state = true;
        return {Category::OptimizerState,
                life.free_action ? Reason::OptimizerStateAliveAfter : Reason::OptimizerStateNeverFreed};
      case Phase::ZeroGrad:
        if (freed_inside) return {Category::Temporary, Reason::ZeroGradTemporary};
        saw_gradients = true;
        return {Category::Gradient, Reason::ZeroGradAlive};
      case Phase::Backward:
        if (freed_inside) return {Category::Temporary, Reason::BackwardTemporary};
        saw_gradients = true;
        return {Category::Gradient,
                !life.free_action && last_region ? Reason::BackwardGradientAtEnd : Reason::BackwardGradient};
      case Phase::Forward:
        return forward(life, freed_inside, region);
      case Phase::None:
        break;
    }
    return {Category::Unknown, Reason::NoEvidence};
  }

  // An element from before recording that the trace frees: what its free shows.
  Verdict freed_before_recorded(uint32_t elem, size_t free_action) const {
    // The free's own stack says zero_grad even where it falls just before the annotation.
    if (out_.phases.alloc_evidence(elem) == Phase::ZeroGrad)
      return {Category::Gradient, Reason::PreexistingFreedZeroGrad};
    switch (out_.phases.phase_of(free_action)) {
      case Phase::ZeroGrad:
        return {Category::Gradient, Reason::PreexistingFreedZeroGrad};
      case Phase::Backward:
        return {Category::Activation, Reason::PreexistingFreedBackward};
      case Phase::Optimizer:
        // The step makes new state that survives it while freeing these: replaced state.
        if (out_.optimizer_state_traced) return {Category::OptimizerState, Reason::PreexistingReplacedState};
        return {Category::Unknown, Reason::PreexistingFreed};
      default:
        return {Category::Unknown, Reason::PreexistingFreed};
    }
  }

  // A block alive throughout whose allocation stack the segment snapshot kept; nullopt without one.
  std::optional<Verdict> alive_by_own_stack(uint32_t elem) const {
    if (input_.timeline.element(elem).stack == 0) return std::nullopt;
    if (out_.phases.workspace_evidence(elem)) return Verdict{Category::Workspace, Reason::WorkspaceFrame};
    switch (out_.phases.alloc_evidence(elem)) {
      case Phase::Optimizer:
        return Verdict{Category::OptimizerState, Reason::PreexistingStackOptimizer};
      case Phase::Backward:
      case Phase::ZeroGrad:
        return Verdict{Category::Gradient, Reason::PreexistingStackBackward};
      case Phase::Forward:
        if (out_.phases.construction_evidence(elem))
          return Verdict{Category::Parameter, Reason::PreexistingStackConstruction};
        return Verdict{Category::Unknown, Reason::PreexistingStackForward};
      case Phase::None:
        break;
    }
    return std::nullopt;
  }

  bool training_seen() const { return training_seen_; }

 private:
  Verdict forward(const Lifetime& life, bool freed_inside, uint32_t region) const {
    if (freed_inside) return {Category::Temporary, Reason::ForwardTemporary};
    if (life.free_action && out_.phases.phase_of(*life.free_action) == Phase::Backward)
      return {Category::Activation, Reason::ForwardActivation};
    const bool backward_follows = backward_after(region);
    if (!life.free_action && ends_in_backward_ && backward_follows)
      return {Category::Activation, Reason::ForwardBackwardUnfinished};
    if (backward_follows) return {Category::Unknown, Reason::ForwardSurvivesBackward};
    // Alive at the end with no backward after it: saved for a backward the trace does not
    // contain, if the trace is a training run at all.
    if (!life.free_action && training_seen_) return {Category::Activation, Reason::ForwardAtEnd};
    return {Category::Unknown, Reason::ForwardNoBackward};
  }

  bool backward_after(uint32_t region) const {
    return region == kNoIndex ? first_backward_ : backward_follows_[region];
  }

  // The region of an allocation: allocations come in action order, so the last answer is
  // usually still right or one region back.
  uint32_t alloc_region(size_t action) {
    const auto& regions = out_.phases.regions();
    if (region_hint_ < regions.size() && regions[region_hint_].first_action <= action &&
        action < regions[region_hint_].end_action)
      return static_cast<uint32_t>(region_hint_);
    const uint32_t region = out_.phases.region_of(action);
    if (region != kNoIndex) region_hint_ = region;
    return region;
  }

  const ClassifyInput& input_;
  Classification& out_;
  size_t region_hint_ = 0;
  std::vector<bool> backward_follows_;
  bool has_optimizer_ = out_.phases.has(Phase::Optimizer);
  bool has_backward_ = out_.phases.has(Phase::Backward);
  bool training_seen_ = has_optimizer_ || has_backward_ || out_.phases.has(Phase::ZeroGrad);
  // The last phase region is a backward pass: the trace stops before that backward ends.
  bool ends_in_backward_ =
      !out_.phases.regions().empty() && out_.phases.regions().back().phase == Phase::Backward;
  bool first_backward_ = false;
};

void check_cancel(const std::atomic<bool>* cancel, size_t i) {
  if (cancel && i % kCancelCheckInterval == 0 && cancel->load(std::memory_order_relaxed))
    throw std::runtime_error("classification cancelled");
}

void apply_rules(const ClassifyInput& input, Classification& out, const std::atomic<bool>* cancel) {
  std::vector<CategoryId> rule_category;
  for (const CategoryRule& rule : out.rules.rules) rule_category.push_back(out.names.intern(rule.category));
  RuleMatcher matcher(out.rules, input.stacks, out.annotations);
  out.rule_of.assign(input.timeline.element_count(), 0);
  for (uint32_t elem = 0; elem < input.timeline.element_count(); ++elem) {
    check_cancel(cancel, elem);
    if (!input.timeline.ever_live(elem)) continue;
    const Lifetime life = lifetime_of(input.timeline, elem);
    const StackId stack = life.alloc_action ? input.timeline.element(elem).stack : StackId{0};
    const int rule = matcher.first_match(stack, life.alloc_action);
    if (rule == kNoRule) continue;
    out.categories[elem] = rule_category[static_cast<size_t>(rule)];
    out.reasons[elem] = Reason::Rule;
    out.rule_of[elem] = static_cast<uint16_t>(rule);
  }
}

// The traced allocations, in two halves on two threads when there are many.
void classify_traced(const ClassifyInput& input, Classification& out, const std::atomic<bool>* cancel) {
  const Timeline& timeline = input.timeline;
  const size_t count = timeline.element_count();
  const size_t parts = count >= kParallelThreshold ? 2 : 1;
  std::vector<Classifier> classifiers(parts, Classifier(input, out));
  ParallelJobs jobs;
  for (size_t part = 0; part < parts; ++part) {
    const auto begin = static_cast<uint32_t>(count * part / parts);
    const auto end = static_cast<uint32_t>(count * (part + 1) / parts);
    jobs.add(end - begin, [&, begin, end, part] {
      Classifier& classifier = classifiers[part];
      for (uint32_t elem = begin; elem < end; ++elem) {
        check_cancel(cancel, elem);
        if (!timeline.ever_live(elem)) continue;
        const Lifetime life = lifetime_of(timeline, elem);
        if (!life.alloc_action || from_before_recording(timeline, elem)) continue;
        const Verdict verdict = classifier.traced(elem, life);
        out.categories[elem] = category_id(verdict.category);
        out.reasons[elem] = verdict.reason;
      }
    });
  }
  jobs.run();
  for (const Classifier& classifier : classifiers) {
    out.optimizer_state_traced = out.optimizer_state_traced || classifier.saw_optimizer_state;
    out.gradients_traced = out.gradients_traced || classifier.saw_gradients;
  }
}

// One generation of gradients and of surviving optimizer state among the traced allocations.
void count_traced_evidence(const Timeline& timeline, const Classification& out, StacklessEvidence& evidence) {
  for (uint32_t elem = 0; elem < timeline.element_count(); ++elem) {
    if (!timeline.ever_live(elem) || from_before_recording(timeline, elem)) continue;
    const uint64_t key = size_key(timeline.element(elem).size);
    if (out.categories[elem] == category_id(Category::Gradient)) ++evidence.gradients[key];
    if (out.categories[elem] == category_id(Category::OptimizerState) &&
        timeline.free_state(elem) == timeline.never_freed())
      ++evidence.state[key];
  }
}

// Memory allocated before recording: what the trace does to it, else its own stack, else its size
// against the gradients and optimizer state in sight (stackless_matcher.h).
void classify_before_recording(const ClassifyInput& input, Classification& out) {
  const Timeline& timeline = input.timeline;
  Classifier classifier(input, out);
  StacklessEvidence evidence;
  count_traced_evidence(timeline, out, evidence);
  SizeCounts earlier_gradients;
  std::vector<uint32_t> stackless;
  std::vector<uint64_t> stackless_sizes;
  for (uint32_t elem = 0; elem < timeline.element_count(); ++elem) {
    if (!timeline.ever_live(elem) || !from_before_recording(timeline, elem)) continue;
    const Lifetime life = lifetime_of(timeline, elem);
    const std::optional<Verdict> verdict = life.free_action
                                               ? classifier.freed_before_recorded(elem, *life.free_action)
                                               : classifier.alive_by_own_stack(elem);
    if (!verdict) {
      stackless.push_back(elem);
      stackless_sizes.push_back(timeline.element(elem).size);
      continue;
    }
    out.categories[elem] = category_id(verdict->category);
    out.reasons[elem] = verdict->reason;
    const uint64_t key = size_key(timeline.element(elem).size);
    if (verdict->category == Category::Gradient) ++earlier_gradients[key];
    if (verdict->category == Category::OptimizerState && !life.free_action) ++evidence.state[key];
  }
  if (evidence.gradients.empty()) evidence.gradients = std::move(earlier_gradients);
  evidence.training = classifier.training_seen();
  evidence.state_in_place = out.phases.has(Phase::Optimizer) && !out.optimizer_state_traced;
  const std::vector<StacklessVerdict> verdicts = match_stackless(stackless_sizes, evidence);
  for (size_t i = 0; i < stackless.size(); ++i) {
    out.categories[stackless[i]] = category_id(verdicts[i].category);
    out.reasons[stackless[i]] = verdicts[i].reason;
  }
}

}  // namespace

Classification classify_allocations(const ClassifyInput& input, const std::atomic<bool>* cancel) {
  const Timeline& timeline = input.timeline;
  Classification out;
  if (input.rules) out.rules = *input.rules;
  out.annotations = place_annotations(timeline, pair_annotations(input.annotations, timeline.input().device));
  out.phases = PhaseRegions(timeline, input.stacks, out.annotations);
  out.categories.assign(timeline.element_count(), category_id(Category::Unknown));
  out.reasons.assign(timeline.element_count(), Reason::NeverLive);
  // Traced allocations first: whether the optimizer made its state decides what the memory
  // from before recording most likely is.
  classify_traced(input, out, cancel);
  classify_before_recording(input, out);
  if (!out.rules.empty()) apply_rules(input, out, cancel);
  return out;
}

const char* strength_name(Strength strength) {
  switch (strength) {
    case Strength::Certain:
      return "certain";
    case Strength::Likely:
      return "likely";
    case Strength::None:
      break;
  }
  return "none";
}

Strength reason_strength(Reason reason) {
  switch (reason) {
    case Reason::Rule:
    case Reason::WorkspaceFrame:
    case Reason::ModelConstruction:
    case Reason::OptimizerStateAliveAfter:
    case Reason::OptimizerStateNeverFreed:
    case Reason::OptimizerTemporary:
    case Reason::ZeroGradTemporary:
    case Reason::BackwardGradient:
    case Reason::BackwardTemporary:
    case Reason::ForwardActivation:
    case Reason::ForwardTemporary:
    case Reason::PreexistingStackOptimizer:
    case Reason::PreexistingStackConstruction:
    case Reason::PreexistingFreedZeroGrad:
      return Strength::Certain;
    case Reason::NeverLive:
    case Reason::NoEvidence:
      return Strength::None;
    default:
      return Strength::Likely;
  }
}

const char* reason_summary(Reason reason) {
  switch (reason) {
    case Reason::NeverLive:
      return "never live";
    case Reason::Rule:
      return "a user rule";
    case Reason::WorkspaceFrame:
      return "a workspace or communication frame";
    case Reason::ModelConstruction:
      return "made by a constructor, Module.to, load_state_dict or a gather";
    case Reason::PreexistingNoTraining:
      return "from before recording, no stack, no training in the trace";
    case Reason::PreexistingMatchesGradient:
      return "from before recording, a gradient of its size";
    case Reason::PreexistingWithoutGradient:
      return "from before recording, no stack, no gradient of its size";
    case Reason::PreexistingFrozen:
      return "from before recording, no gradient of its size in a training run";
    case Reason::PreexistingPairedParameter:
      return "from before recording, paired with a same-size gradient";
    case Reason::PreexistingPairedGradient:
      return "from before recording, paired with a same-size parameter";
    case Reason::PreexistingInPlaceState:
      return "from before recording, gradient-sized, the step makes no state";
    case Reason::PreexistingStackOptimizer:
      return "from before recording, its stack is the optimizer step";
    case Reason::PreexistingStackBackward:
      return "from before recording, its stack is the backward pass";
    case Reason::PreexistingStackConstruction:
      return "from before recording, its stack builds the model";
    case Reason::PreexistingStackForward:
      return "from before recording, made by a forward, alive throughout";
    case Reason::PreexistingReplacedState:
      return "from before recording, replaced by the optimizer step";
    case Reason::PreexistingFreedZeroGrad:
      return "from before recording, freed by zero_grad";
    case Reason::PreexistingFreedBackward:
      return "from before recording, freed in the backward pass";
    case Reason::PreexistingFreed:
      return "from before recording, freed outside any known phase";
    case Reason::OptimizerStateAliveAfter:
      return "made in the optimizer step, alive after it";
    case Reason::OptimizerStateNeverFreed:
      return "made in the optimizer step, never freed";
    case Reason::OptimizerTemporary:
      return "made and freed in the optimizer step";
    case Reason::ZeroGradTemporary:
      return "made and freed in zero_grad";
    case Reason::ZeroGradAlive:
      return "made in zero_grad and kept";
    case Reason::BackwardGradient:
      return "made in the backward pass, alive after it";
    case Reason::BackwardGradientAtEnd:
      return "made in the backward pass, alive when the trace ends in it";
    case Reason::BackwardTemporary:
      return "made and freed in the backward pass";
    case Reason::ForwardActivation:
      return "made in the forward, freed in the backward";
    case Reason::ForwardTemporary:
      return "made and freed in the forward";
    case Reason::ForwardSurvivesBackward:
      return "made in the forward, alive after its backward pass";
    case Reason::ForwardNoBackward:
      return "made in the forward, alive to the end, no training in the trace";
    case Reason::ForwardAtEnd:
      return "made in the forward, alive when the trace ends before its backward";
    case Reason::ForwardBackwardUnfinished:
      return "made in the forward, alive when the trace ends inside its backward";
    case Reason::NoEvidence:
      return "no stack and no phase";
  }
  return "";
}

MomentTable category_moment_table(std::span<const LiveElement> live, const Classification& classification,
                                  size_t state) {
  return build_grouped_table(
      live, [&](const LiveElement& element) { return uint32_t{classification.category(element.elem)}; },
      [&](uint32_t category) {
        return std::string(classification.names.name(static_cast<CategoryId>(category)));
      },
      state);
}

std::vector<uint64_t> category_bytes_at(const Classification& classification, const Timeline& timeline,
                                        size_t state) {
  std::vector<uint64_t> bytes(classification.names.size(), 0);
  std::vector<LiveAllocation> live;
  timeline.live_at(state, live);
  for (const LiveAllocation& allocation : live)
    bytes[classification.categories[allocation.elem]] += allocation.size;
  return bytes;
}

}  // namespace snapscope
