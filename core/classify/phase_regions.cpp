#include "core/classify/phase_regions.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <unordered_map>

#include "core/analysis/frame_kind.h"
#include "core/analysis/phase_table.h"

namespace snapscope {
namespace {

bool contains(std::string_view text, std::string_view part) {
  return text.find(part) != std::string_view::npos;
}

bool contains_lower(std::string_view text, std::string_view lower_part) {
  std::string lowered(text);
  for (char& c : lowered) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return contains(lowered, lower_part);
}

std::string_view file_stem(std::string_view filename) {
  const size_t slash = filename.find_last_of("/\\");
  return slash == std::string_view::npos ? filename : filename.substr(slash + 1);
}

struct StackEvidence {
  bool zero_grad = false, optimizer = false, backward = false;
};

void note_python_frame(const FrameRef& frame, StackEvidence& evidence) {
  if (frame.name == "zero_grad") {
    evidence.zero_grad = true;
    return;
  }
  if (contains(frame.filename, "/torch/optim/") || contains(frame.filename, "\\torch\\optim\\"))
    evidence.optimizer = true;
  // A hand-written optimizer: `step` in optimizer.py / optimizers.py / my_optim.py.
  if (frame.name == "step" && contains_lower(file_stem(frame.filename), "optim")) evidence.optimizer = true;
  if (frame.name == "backward" || frame.name == "_engine_run_backward" || frame.name == "run_backward")
    evidence.backward = true;
}

void note_native_frame(const FrameRef& frame, StackEvidence& evidence) {
  if (classify_frame(frame.name, frame.filename) == FrameKind::AutogradNode ||
      contains(frame.name, "autograd::Engine::") || contains(frame.name, "torch::autograd::engine"))
    evidence.backward = true;
}

// Strongest first: a phase annotation nested in another names the narrower phase.
constexpr std::array<Phase, 4> kPhasePriority = {Phase::ZeroGrad, Phase::Optimizer, Phase::Backward,
                                                 Phase::Forward};

}  // namespace

const char* phase_name(Phase phase) {
  switch (phase) {
    case Phase::Forward:
      return "forward";
    case Phase::Backward:
      return "backward pass";
    case Phase::Optimizer:
      return "optimizer step";
    case Phase::ZeroGrad:
      return "zero_grad";
    case Phase::None:
      break;
  }
  return "unknown phase";
}

Phase stack_phase(std::span<const FrameId> frames, const StackSource& source) {
  if (frames.empty()) return Phase::None;
  StackEvidence evidence;
  for (const FrameId id : frames) {
    const FrameRef frame = source.frame(id);
    if (frame.filename.ends_with(".py")) {
      note_python_frame(frame, evidence);
    } else {
      note_native_frame(frame, evidence);
    }
  }
  if (evidence.zero_grad) return Phase::ZeroGrad;
  if (evidence.optimizer) return Phase::Optimizer;
  if (evidence.backward) return Phase::Backward;
  return Phase::Forward;
}

Phase annotation_phase(std::string_view name) {
  if (contains_lower(name, "zero_grad")) return Phase::ZeroGrad;
  if (contains(name, "Optimizer.step") || (contains_lower(name, "optim") && contains_lower(name, "step")))
    return Phase::Optimizer;
  if (contains_lower(name, "backward")) return Phase::Backward;
  if (contains_lower(name, "forward")) return Phase::Forward;
  return Phase::None;
}

std::vector<PlacedAnnotation> place_annotations(const Timeline& timeline, const AnnotationPairing& pairing) {
  std::vector<PlacedAnnotation> placed;
  const ActionClock clock(timeline);
  if (!clock.has_times()) return placed;
  for (const AnnotationInterval& interval : pairing.intervals) {
    if (interval.start_time_us == kNoTime) continue;
    PlacedAnnotation annotation{interval.name, clock.state_at_time(interval.start_time_us), 0,
                                annotation_phase(interval.name)};
    // A range never closed runs to the end of the trace.
    annotation.end_action =
        interval.end_time_us == kNoTime
            ? timeline.action_count()
            : std::max(annotation.first_action, clock.state_at_time(interval.end_time_us));
    placed.push_back(std::move(annotation));
  }
  return placed;
}

PhaseRegions::PhaseRegions(const Timeline& timeline, const StackSource& stacks,
                           std::span<const PlacedAnnotation> placed)
    : alloc_evidence_(timeline.element_count(), Phase::None) {
  std::unordered_map<StackId, Phase> by_stack;
  const auto cached_stack_phase = [&](StackId stack) {
    if (stack == 0) return Phase::None;
    auto [it, inserted] = by_stack.try_emplace(stack, Phase::None);
    if (inserted) it->second = stack_phase(stacks.stack_frames(stack), stacks);
    return it->second;
  };
  // Phase annotations as +1 / -1 edges over actions, swept with one counter per phase.
  struct Edge {
    size_t action;
    int delta;
    Phase phase;
  };
  std::vector<Edge> edges;
  for (const PlacedAnnotation& annotation : placed) {
    if (annotation.phase == Phase::None || annotation.first_action >= annotation.end_action) continue;
    edges.push_back({annotation.first_action, +1, annotation.phase});
    edges.push_back({annotation.end_action, -1, annotation.phase});
  }
  std::sort(edges.begin(), edges.end(), [](const Edge& a, const Edge& b) { return a.action < b.action; });
  std::array<int, 5> open{};
  size_t next_edge = 0;
  Phase current = Phase::None;
  for (size_t action = 0; action < timeline.action_count(); ++action) {
    for (; next_edge < edges.size() && edges[next_edge].action == action; ++next_edge)
      open[static_cast<size_t>(edges[next_edge].phase)] += edges[next_edge].delta;
    Phase annotated = Phase::None;
    for (const Phase phase : kPhasePriority) {
      if (open[static_cast<size_t>(phase)] > 0) {
        annotated = phase;
        break;
      }
    }
    const uint32_t elem = timeline.action_elem(action);
    const ReplayElement& element = timeline.element(elem);
    Phase phase = annotated;
    if (!timeline.action_is_free(action)) {
      const Phase shown = cached_stack_phase(element.stack);
      alloc_evidence_[elem] = annotated != Phase::None ? annotated : shown;
      if (phase == Phase::None) phase = shown;
    } else if (phase == Phase::None && element.origin == Origin::FreeWithoutAlloc) {
      phase = cached_stack_phase(element.stack);         // its only stack is the free's
      if (phase == Phase::Forward) phase = Phase::None;  // a Python `del` says little
    }
    if (phase == Phase::None || phase == current) continue;
    if (!regions_.empty()) regions_.back().end_action = action;
    regions_.push_back({phase, action, timeline.action_count(), -1});
    current = phase;
  }
  for (PhaseRegion& region : regions_) {
    for (size_t i = 0; i < placed.size(); ++i) {
      if (placed[i].phase == region.phase && placed[i].first_action <= region.first_action &&
          region.first_action < placed[i].end_action) {
        region.annotation = static_cast<int>(i);
        break;
      }
    }
  }
}

uint32_t PhaseRegions::region_of(size_t action) const {
  const auto after =
      std::upper_bound(regions_.begin(), regions_.end(), action,
                       [](size_t a, const PhaseRegion& region) { return a < region.first_action; });
  if (after == regions_.begin()) return kNoIndex;
  return static_cast<uint32_t>(after - regions_.begin() - 1);
}

Phase PhaseRegions::phase_of(size_t action) const {
  const uint32_t region = region_of(action);
  return region == kNoIndex ? Phase::None : regions_[region].phase;
}

bool PhaseRegions::has(Phase phase) const {
  return std::any_of(regions_.begin(), regions_.end(),
                     [phase](const PhaseRegion& r) { return r.phase == phase; });
}

Phase PhaseRegions::alloc_evidence(uint32_t elem) const { return alloc_evidence_[elem]; }

std::string PhaseRegions::describe(uint32_t region, std::span<const PlacedAnnotation> placed) const {
  if (region == kNoIndex || region >= regions_.size()) return "no known phase";
  const PhaseRegion& shown = regions_[region];
  std::string text = std::string("the ") + phase_name(shown.phase);
  if (shown.annotation >= 0 && static_cast<size_t>(shown.annotation) < placed.size())
    text = placed[static_cast<size_t>(shown.annotation)].name;
  return text;
}

}  // namespace snapscope
