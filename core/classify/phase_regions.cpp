#include "core/classify/phase_regions.h"

#include <algorithm>
#include <array>
#include <cctype>

#include "core/analysis/frame_kind.h"
#include "core/analysis/phase_table.h"
#include "core/classify/stack_memo.h"

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

// "/torch/optim/" on POSIX or Windows paths.
bool in_folder(std::string_view filename, std::string_view posix_folder) {
  if (contains(filename, posix_folder)) return true;
  std::string windows(posix_folder);
  std::replace(windows.begin(), windows.end(), '/', '\\');
  return contains(filename, windows);
}

// torch.optim (the Optimizer.step wrapper and hooks too) and the optimizer libraries people use.
bool is_optimizer_file(std::string_view filename) {
  static constexpr std::array<std::string_view, 10> kFolders = {"/torch/optim/",
                                                                "/apex/optimizers/",
                                                                "/apex/contrib/optimizers/",
                                                                "/bitsandbytes/optim/",
                                                                "/deepspeed/ops/adam/",
                                                                "/deepspeed/ops/lamb/",
                                                                "/deepspeed/runtime/zero/stage_1_and_2.py",
                                                                "/deepspeed/runtime/zero/stage3.py",
                                                                "/torchao/optim/",
                                                                "/transformers/optimization.py"};
  return std::any_of(kFolders.begin(), kFolders.end(),
                     [&](std::string_view folder) { return in_folder(filename, folder); });
}

void note_python_frame(const FrameRef& frame, StackEvidence& evidence) {
  if (frame.name == "zero_grad") {
    evidence.zero_grad = true;
    return;
  }
  if (is_optimizer_file(frame.filename)) evidence.optimizer = true;
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

// FSDP (1 and 2) and ZeRO-3 unsharding a layer's parameters for its forward or backward.
static bool is_gather_frame(const FrameRef& frame) {
  const bool sharding_library = in_folder(frame.filename, "/torch/distributed/fsdp/") ||
                                in_folder(frame.filename, "/torch/distributed/_composable/fsdp/") ||
                                in_folder(frame.filename, "/deepspeed/runtime/zero/partition_parameters.py");
  return sharding_library && (contains(frame.name, "unshard") || contains(frame.name, "all_gather") ||
                              contains(frame.name, "allgather"));
}

bool is_construction_frame(const FrameRef& frame) {
  // init_weight(s) / init_weight_list, load_weights, load_state_dict / _load_from_state_dict, ...
  static constexpr std::array<std::string_view, 6> kStems = {"init_weight",      "load_weight",
                                                             "reset_parameters", "from_pretrained",
                                                             "load_state_dict",  "load_checkpoint"};
  if (std::any_of(kStems.begin(), kStems.end(),
                  [&](std::string_view stem) { return contains(frame.name, stem); }))
    return true;
  if (is_gather_frame(frame)) return true;
  if (!in_folder(frame.filename, "/torch/nn/")) return false;
  // Module.to / .cuda / .half ... go through _apply; a layer's constructor makes its weights.
  static constexpr std::array<std::string_view, 5> kInTorchNn = {"_apply", "__init__", "to_empty",
                                                                 "register_parameter", "__new__"};
  return std::find(kInTorchNn.begin(), kInTorchNn.end(), frame.name) != kInTorchNn.end();
}

bool is_workspace_frame(const FrameRef& frame) {
  if (frame.filename.ends_with(".py")) return false;
  return contains(frame.name, "orkspace") || contains(frame.name, "c10d::") ||
         contains(frame.name, "ProcessGroupNCCL") || contains(frame.name, "ncclComm");
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
    : alloc_evidence_(timeline.element_count(), static_cast<uint8_t>(Phase::None)) {
  // Per stack: its phase | kWorkspaceBit, computed once.
  StackMemo memo([&](StackId stack) {
    const std::span<const FrameId> frames = stacks.stack_frames(stack);
    const bool workspace = std::any_of(frames.begin(), frames.end(),
                                       [&](FrameId id) { return is_workspace_frame(stacks.frame(id)); });
    const bool construction = std::any_of(
        frames.begin(), frames.end(), [&](FrameId id) { return is_construction_frame(stacks.frame(id)); });
    return static_cast<uint8_t>(static_cast<uint8_t>(stack_phase(frames, stacks)) |
                                (workspace ? kWorkspaceBit : 0) | (construction ? kConstructionBit : 0));
  });
  const auto stack_evidence = [&](StackId stack) { return stack == 0 ? uint8_t{0} : memo.get(stack); };
  const auto cached_stack_phase = [&](StackId stack) {
    return static_cast<Phase>(stack_evidence(stack) & kPhaseBits);
  };
  // Phase annotations as +1 / -1 edges over actions, swept with one counter per phase.
  struct Edge {
    size_t action;
    int delta;
    Phase phase;
    int annotation;
  };
  std::vector<Edge> edges;
  for (size_t i = 0; i < placed.size(); ++i) {
    const PlacedAnnotation& annotation = placed[i];
    if (annotation.phase == Phase::None || annotation.first_action >= annotation.end_action) continue;
    edges.push_back({annotation.first_action, +1, annotation.phase, static_cast<int>(i)});
    edges.push_back({annotation.end_action, -1, annotation.phase, static_cast<int>(i)});
  }
  // Ends before starts at the same action: a range ending where the next begins is not open.
  std::sort(edges.begin(), edges.end(), [](const Edge& a, const Edge& b) {
    return a.action != b.action ? a.action < b.action : a.delta < b.delta;
  });
  // Pre-existing elements have their own stack too: a block's allocation stack, or the stack of
  // the free that ended an element allocated before recording.
  const ReplayInput& input = timeline.input();
  for (const uint32_t elem : input.initial_stack)
    alloc_evidence_[elem] = stack_evidence(timeline.element(elem).stack);
  if (input.synthetic_action && !input.actions.empty()) {
    const uint32_t promoted = input.actions.front().elem;
    alloc_evidence_[promoted] = stack_evidence(timeline.element(promoted).stack);
  }
  std::array<int, 5> open{};
  std::array<int, 5> latest_open{-1, -1, -1, -1, -1};  // per phase, the last range opened
  size_t next_edge = 0;
  Phase current = Phase::None;
  for (size_t action = 0; action < timeline.action_count(); ++action) {
    for (; next_edge < edges.size() && edges[next_edge].action == action; ++next_edge) {
      const Edge& edge = edges[next_edge];
      const auto phase = static_cast<size_t>(edge.phase);
      open[phase] += edge.delta;
      if (edge.delta > 0) latest_open[phase] = edge.annotation;
      if (open[phase] == 0) latest_open[phase] = -1;
    }
    Phase annotated = Phase::None;
    for (const Phase phase : kPhasePriority) {
      if (open[static_cast<size_t>(phase)] > 0) {
        annotated = phase;
        break;
      }
    }
    const uint32_t elem = timeline.action_elem(action);
    Phase phase = annotated;
    if (!timeline.action_is_free(action)) {
      const uint8_t evidence = stack_evidence(timeline.element(elem).stack);
      const auto shown = static_cast<Phase>(evidence & kPhaseBits);
      alloc_evidence_[elem] =
          static_cast<uint8_t>(static_cast<uint8_t>(annotated != Phase::None ? annotated : shown) |
                               (evidence & (kWorkspaceBit | kConstructionBit)));
      if (phase == Phase::None) phase = shown;
    } else if (phase == Phase::None && timeline.element(elem).origin == Origin::FreeWithoutAlloc) {
      phase = cached_stack_phase(timeline.element(elem).stack);  // its only stack is the free's
      if (phase == Phase::Forward) phase = Phase::None;          // a Python `del` says little
    }
    if (phase == Phase::None || phase == current) continue;
    if (!regions_.empty()) regions_.back().end_action = action;
    regions_.push_back({phase, action, timeline.action_count(), latest_open[static_cast<size_t>(phase)]});
    current = phase;
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

std::string PhaseRegions::describe(uint32_t region, std::span<const PlacedAnnotation> placed) const {
  if (region == kNoIndex || region >= regions_.size()) return "no known phase";
  const PhaseRegion& shown = regions_[region];
  std::string text = std::string("the ") + phase_name(shown.phase);
  if (shown.annotation >= 0 && static_cast<size_t>(shown.annotation) < placed.size())
    text = placed[static_cast<size_t>(shown.annotation)].name;
  return text;
}

}  // namespace snapscope
