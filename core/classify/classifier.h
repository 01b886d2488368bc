// Gives every allocation of a timeline one category, how strong the evidence is and the reason
// for it, from what the snapshot holds: user rules first, then workspace frames, then the
// allocation's own stack and its lifetime relative to the phases (phase_regions.h); memory from
// before recording by its own stack (a snapshot block keeps its allocation stack), else by
// matching its size against the gradients and optimizer state the trace shows. Where the
// evidence is absent or conflicts the answer is `unknown`, with the reason saying what was seen.
// O(allocations + distinct stacks); no GUI, no database. docs/RULES.md states the rules.
#pragma once

#include <array>
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
  Rule,                          // a user rule matched (rule_of says which)
  WorkspaceFrame,                // cuBLAS / cuDNN workspace, NCCL / c10d buffer frame
  PreexistingNoTraining,         // before recording, alive throughout, no stack; no training in sight
  PreexistingMatchesGradient,    // before recording, alive throughout, a gradient of its size
  PreexistingWithoutGradient,    // before recording, alive throughout, no gradient of its size
  PreexistingFrozen,             // the same in a training run: a frozen parameter or a model buffer
  PreexistingPairedParameter,    // before recording, alive throughout, one of a parameter/gradient pair
  PreexistingPairedGradient,     // the other one: a gradient the backward accumulates into in place
  PreexistingInPlaceState,       // before recording, a gradient's size beyond its parameter; the step
                                 // allocates no state, so it updates this in place
  PreexistingStackOptimizer,     // before recording, its stack is the optimizer step: state
  PreexistingStackBackward,      // before recording, its stack is the backward pass: a gradient
  PreexistingStackConstruction,  // before recording, its stack builds or moves the model: a parameter
  PreexistingStackForward,       // before recording, its stack is a forward, alive throughout
  PreexistingReplacedState,      // before recording, freed in a step that makes surviving state
  PreexistingFreedZeroGrad,      // before recording, freed by zero_grad
  PreexistingFreedBackward,      // before recording, freed in the backward pass
  PreexistingFreed,              // before recording, freed elsewhere
  ModelConstruction,             // made by a constructor / Module.to / load_state_dict in the trace
  OptimizerStateAliveAfter,      // made in the optimizer step, alive after it
  OptimizerStateNeverFreed,      // made in the optimizer step, never freed
  OptimizerTemporary,            // made and freed in the optimizer step
  ZeroGradTemporary,
  ZeroGradAlive,
  BackwardGradient,           // made in the backward pass, alive after it ended
  BackwardGradientAtEnd,      // made in the backward pass, alive when the trace ends inside it
  BackwardTemporary,          // made and freed in the backward pass
  ForwardActivation,          // made in the forward, freed in the backward
  ForwardTemporary,           // made and freed in the forward
  ForwardSurvivesBackward,    // made in the forward, alive after the backward that followed
  ForwardNoBackward,          // made in the forward, alive to the end; no backward, no training seen
  ForwardAtEnd,               // made in the forward, alive when the trace ends before its backward
  ForwardBackwardUnfinished,  // made in the forward, alive when the trace ends inside its backward
  NoEvidence,                 // no stack and no phase annotation
};

// How sure a category is: `certain` where the allocation's own stack or lifetime says it (made
// and freed inside one phase, made by the optimizer step and kept, a rule), `likely` where it is
// inferred (sizes matched against gradients, a trace that ends mid-step), `none` for unknown.
enum class Strength : uint8_t { Certain, Likely, None };
const char* strength_name(Strength strength);  // "certain", "likely", "none"
Strength reason_strength(Reason reason);

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
  Strength strength(uint32_t elem) const {
    return categories[elem] == category_id(Category::Unknown) ? Strength::None
                                                              : reason_strength(reasons[elem]);
  }
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

// A short phrase for a reason, for tables and legends ("no stack, no training evidence").
const char* reason_summary(Reason reason);

}  // namespace snapscope
