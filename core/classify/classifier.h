// Gives every allocation of a timeline one category and the reason for it, from what the snapshot
// holds: user rules first, then workspace frames, then lifetimes relative to the phases
// (phase_regions.h). Where the evidence is weak the answer is `unknown`, with the reason saying
// what was seen. O(allocations + distinct stacks); no GUI, no database.
#pragma once

#include <atomic>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/analysis/annotation_pairing.h"
#include "core/analysis/live_elements.h"
#include "core/analysis/moment_table.h"
#include "core/analysis/stack_source.h"
#include "core/classify/category.h"
#include "core/classify/category_rules.h"
#include "core/classify/phase_regions.h"
#include "core/timeline/timeline.h"

namespace snapscope {

enum class Reason : uint8_t {
  NeverLive,
  Rule,                           // a user rule matched (rule_of says which)
  WorkspaceFrame,                 // cuBLAS / cuDNN workspace, NCCL / c10d buffer frame
  PreexistingParameters,          // before recording, alive throughout; the trace does not contradict it
  PreexistingWithOptimizerState,  // before recording, alive throughout; the step made no optimizer state
  PreexistingWithGradients,       // before recording, alive throughout; the backward made no gradients
  PreexistingMatchesGradient,     // before recording, alive throughout, a traced gradient of its size
  PreexistingWithoutGradient,     // before recording, alive throughout, no traced gradient of its size
  PreexistingReplacedState,       // before recording, freed in a step that makes surviving state
  PreexistingFreedZeroGrad,       // before recording, freed by zero_grad
  PreexistingFreedBackward,       // before recording, freed in the backward pass
  PreexistingFreed,               // before recording, freed elsewhere
  OptimizerStateAliveAfter,       // made in the optimizer step, alive after it
  OptimizerStateNeverFreed,       // made in the optimizer step, never freed
  OptimizerTemporary,             // made and freed in the optimizer step
  ZeroGradTemporary,
  ZeroGradAlive,
  BackwardGradient,         // made in the backward pass, alive after it ended
  BackwardGradientAtEnd,    // made in the backward pass, alive when the trace ends inside it
  BackwardTemporary,        // made and freed in the backward pass
  ForwardActivation,        // made in the forward, freed in the backward
  ForwardTemporary,         // made and freed in the forward
  ForwardSurvivesBackward,  // made in the forward, alive after the backward that followed
  ForwardNoBackward,        // made in the forward, alive when no backward follows
  NoEvidence,               // no stack and no phase annotation
};

struct Classification {
  CategoryNames names;
  std::vector<CategoryId> categories;  // per element
  std::vector<Reason> reasons;         // per element
  std::vector<uint16_t> rule_of;       // per element, the matching rule's index; empty without rules
  CategoryRules rules;
  std::vector<PlacedAnnotation> annotations;  // the device's annotations placed on actions
  PhaseRegions phases;
  bool optimizer_state_traced = false;  // the trace shows the optimizer creating its state
  bool gradients_traced = false;        // the trace shows the backward creating gradients

  CategoryId category(uint32_t elem) const { return categories[elem]; }
  std::string_view category_name(uint32_t elem) const { return names.name(categories[elem]); }
};

struct ClassifyInput {
  const Timeline& timeline;
  const StackSource& stacks;
  std::span<const AnnotationRecord> annotations;  // any devices; the timeline's is used
  const CategoryRules* rules = nullptr;
};

// `cancel` (may be null) aborts with std::runtime_error.
Classification classify_allocations(const ClassifyInput& input, const std::atomic<bool>* cancel = nullptr);

// The moment table of `live` grouped by category instead of location (the Categories tab, the
// report's --by category, categories-csv).
MomentTable category_moment_table(std::span<const LiveElement> live, const Classification& classification,
                                  size_t state);

// "optimizer state: allocated inside Optimizer.step#AdamW.step, alive after it ended".
std::string classification_reason(const Classification& classification, const Timeline& timeline,
                                  const StackSource& stacks, uint32_t elem);

// Bytes per category (indexed by CategoryId, names.size() entries) live in `state`; they sum
// to timeline.total_at_state(state).
std::vector<uint64_t> category_bytes_at(const Classification& classification, const Timeline& timeline,
                                        size_t state);

}  // namespace snapscope
