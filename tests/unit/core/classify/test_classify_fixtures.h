// One training step, hand-built: zero_grad frees last step's gradient, a forward, a backward, an
// optimizer step, with one allocation of every kind. Shared by the classify and findings tests.
#pragma once

#include "unit/support/replay_actions.h"
#include "unit/support/test_analysis_fixtures.h"

namespace snapscope::testing {

// Stacks: 1 forward, 2 backward (autograd node), 3 optimizer (torch/optim), 4 zero_grad,
// 5 cuBLAS workspace under the forward, 6 leaky forward code.
inline FakeStackSource training_stacks() {
  FakeStackSource source;
  source.frames = {{"forward", "/work/model.py", 10},
                   {"main", "/work/train.py", 1},
                   {"torch::autograd::generated::MmBackward0::apply(std::vector<at::Tensor>&&)", "", 0},
                   {"_single_tensor_adam", "/venv/torch/optim/adam.py", 300},
                   {"zero_grad", "/venv/torch/optim/optimizer.py", 900},
                   {"at::cuda::getNewWorkspace()", "", 0},
                   {"leak_fn", "/work/leaky.py", 7}};
  source.stacks.push_back({0, 1});
  source.stacks.push_back({2});
  source.stacks.push_back({3, 1});
  source.stacks.push_back({4, 1});
  source.stacks.push_back({5, 0, 1});
  source.stacks.push_back({6, 0, 1});
  return source;
}

// Elements: 0 parameter (400 B, before recording), 1 last step's gradient (400 B, freed by
// zero_grad), 2 activation (100 B), 3 forward temporary (10 B), 4 workspace (32 B), 5 backward
// temporary (50 B), 6 gradient (400 B), 7 and 8 optimizer state (400 B each), 9 optimizer
// temporary (20 B).
inline ReplayInput training_step() {
  ReplayInput input;
  input.elements = {element(400, 0, Origin::SnapshotBlock),
                    element(400, 4, Origin::FreeWithoutAlloc),
                    element(100, 1),
                    element(10, 1),
                    element(32, 5),
                    element(50, 2),
                    element(400, 2),
                    element(400, 3),
                    element(400, 3),
                    element(20, 3)};
  input.elements[1].free_event = 0;
  input.initial_stack = {0, 1};
  const std::vector<uint32_t> touched = {1, 2, 3, 3, 4, 5, 2, 6, 5, 7, 8, 9, 9};
  for (size_t i = 0; i < touched.size(); ++i) push_action(input, touched[i], static_cast<EventIndex>(i));
  return input;
}

}  // namespace snapscope::testing
