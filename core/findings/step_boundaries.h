// Where the repeated steps of a training loop start: the leak and step-growth findings compare
// what each step leaves behind, so they need the boundaries first.
#pragma once

#include <cstddef>
#include <vector>

#include "core/classify/classifier.h"

namespace snapscope {

// The first action of each step, ascending: the starts of the most repeated annotation
// (ProfilerStep#k, Optimizer.step...), else each forward that follows another phase (and a
// forward that opens the trace). Fewer than two starts: the trace shows one step or none.
std::vector<size_t> step_starts(const Classification& classification);

// Memory that outlives a step by design (parameters, gradients, optimizer state, library
// workspaces): never a leak and never step growth.
bool expected_to_persist(CategoryId category);

// An allocation the trace saw made: not one live before recording, nor a snapshot block that
// memory_viz promotes to the only action of a trace without events.
bool made_while_recording(const Timeline& timeline, uint32_t elem);

}  // namespace snapscope
