// The phases of a training step, read off the trace: every alloc/free action is in the forward,
// the backward, the optimizer step, zero_grad, or unknown. Evidence, strongest first:
//   1. annotations (external_annotations) whose names say the phase ("Optimizer.step#AdamW.step",
//      "Optimizer.zero_grad...", "...backward...", "...forward...");
//   2. the allocation's stack: an autograd node or engine frame (backward), an optimizer frame
//      (torch/optim, an optimizer library, a user `step` in an optim* file, zero_grad), any other
//      frame (forward).
// Frees carry the phase of the allocation before them. A region is a maximal run of actions in
// one phase, so "freed in the backward that followed" is a region lookup.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/analysis/annotation_pairing.h"
#include "core/analysis/stack_source.h"
#include "core/timeline/timeline.h"

namespace snapscope {

enum class Phase : uint8_t { None, Forward, Backward, Optimizer, ZeroGrad };
const char* phase_name(Phase phase);  // "forward", "backward pass", "optimizer step", ...

// The phase a stack shows (None for an empty stack), from its frames' names and files.
Phase stack_phase(std::span<const FrameId> frames, const StackSource& source);
// A cuBLAS / cuDNN workspace or NCCL / c10d frame: library memory, not a tensor.
bool is_workspace_frame(const FrameRef& frame);
// A frame that makes a model's weights: a torch.nn layer's constructor, Module.to / .cuda /
// .half (Module._apply), or a function named for it (init_weight(s), load_weights,
// load_state_dict, reset_parameters, from_pretrained, load_checkpoint), or FSDP / ZeRO-3
// gathering a layer's sharded parameters.
bool is_construction_frame(const FrameRef& frame);
// torch.optim (with the Optimizer.step wrapper and its hooks), apex, bitsandbytes, DeepSpeed,
// torchao or transformers' optimizers: a frame there is the optimizer step.
bool is_optimizer_file(std::string_view filename);
// The phase an annotation's name announces, or None.
Phase annotation_phase(std::string_view name);

// An annotation range placed on actions: actions [first_action, end_action) ran inside it.
struct PlacedAnnotation {
  std::string name;
  size_t first_action = 0, end_action = 0;
  Phase phase = Phase::None;
};
// Needs the trace's times; none when it has no time_us (annotations cannot be placed).
std::vector<PlacedAnnotation> place_annotations(const Timeline& timeline, const AnnotationPairing& pairing);

struct PhaseRegion {
  Phase phase = Phase::None;
  size_t first_action = 0, end_action = 0;  // actions [first, end)
  int annotation = -1;                      // the phase annotation covering its first action, or -1
};

class PhaseRegions {
 public:
  PhaseRegions() = default;
  // Keeps no reference to its inputs.
  PhaseRegions(const Timeline& timeline, const StackSource& stacks, std::span<const PlacedAnnotation> placed);

  const std::vector<PhaseRegion>& regions() const { return regions_; }
  // The region holding action `action`; kNoIndex before the first phase evidence.
  uint32_t region_of(size_t action) const;
  Phase phase_of(size_t action) const;
  // Whether any region has this phase.
  bool has(Phase phase) const;
  // The phase the element's own allocation shows (its stack or a phase annotation), None if neither.
  // For an element from before recording: what its own stack shows (a snapshot block's allocation
  // stack; the stack of the free of an element allocated before recording).
  Phase alloc_evidence(uint32_t elem) const { return static_cast<Phase>(alloc_evidence_[elem] & kPhaseBits); }
  // Its allocation stack holds a workspace frame (is_workspace_frame).
  bool workspace_evidence(uint32_t elem) const { return (alloc_evidence_[elem] & kWorkspaceBit) != 0; }
  // Its allocation stack makes model weights (is_construction_frame).
  bool construction_evidence(uint32_t elem) const { return (alloc_evidence_[elem] & kConstructionBit) != 0; }
  // "the optimizer step (Optimizer.step#AdamW.step)", "the backward pass", ...
  std::string describe(uint32_t region, std::span<const PlacedAnnotation> placed) const;

 private:
  std::vector<PhaseRegion> regions_;
  static constexpr uint8_t kPhaseBits = 0x07, kWorkspaceBit = 0x08, kConstructionBit = 0x10;
  // Per element: its allocation's Phase, | kWorkspaceBit. Read by the classifier's threads, so
  // nothing else of the stacks is needed after construction.
  std::vector<uint8_t> alloc_evidence_;
};

}  // namespace snapscope
