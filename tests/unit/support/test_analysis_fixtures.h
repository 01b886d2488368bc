// Hand-built stacks and replays shared by the analysis unit tests.
#pragma once

#include <string>
#include <vector>

#include "core/analysis/stack_source.h"
#include "core/timeline/timeline.h"
#include "replay_actions.h"

namespace snapscope::testing {

struct FakeFrame {
  std::string name, filename;
  int64_t line = 0;
};

// A StackSource over plain vectors: stack id = index into stacks (0 must be empty).
class FakeStackSource final : public StackSource {
 public:
  std::vector<FakeFrame> frames;
  std::vector<std::vector<FrameId>> stacks{{}};

  std::span<const FrameId> stack_frames(StackId stack) const override { return stacks.at(stack); }
  FrameRef frame(FrameId id) const override {
    const FakeFrame& f = frames.at(id);
    return FrameRef{f.name, f.filename, f.line, {}, {}, {}, {}};
  }
};

// Frames: 0 unwind::unwind (noise), 1 alloc_weights model.py:10, 2 forward model.py:20,
// 3 main train.py:5, 4 PyEval_EvalFrame ceval.c (noise), 5 alloc_act layers.py:30.
// Stacks (innermost first): 1 = weights via forward, 2 = activations via forward,
// 3 = only noise frames.
inline FakeStackSource model_stacks() {
  FakeStackSource source;
  source.frames = {{"unwind::unwind", "unwind.cpp", 1}, {"alloc_weights", "model.py", 10},
                   {"forward", "model.py", 20},         {"main", "train.py", 5},
                   {"PyEval_EvalFrame", "ceval.c", 1},  {"alloc_act", "layers.py", 30}};
  source.stacks.push_back({0, 1, 2, 4, 3});
  source.stacks.push_back({0, 5, 2, 4, 3});
  source.stacks.push_back({0, 4});
  return source;
}

inline ReplayElement element(uint64_t size, StackId stack, Origin origin = Origin::Traced) {
  ReplayElement e;
  e.size = size;
  e.stack = stack;
  e.origin = origin;
  return e;
}

// Elements: 0 = 100 B weights, 1 = 300 B activations, 2 = 50 B weights, 3 = 70 B freed without
// alloc (live at t = 0, stack of its free = activations), 4 = 10 B untraced, 5 = 1000 B weights.
// Actions (event = 2 * index): alloc 0,1,2,4,5, free 5, free 3.
inline ReplayInput model_replay() {
  ReplayInput input;
  input.elements = {element(100, 1), element(300, 2),
                    element(50, 1),  element(70, 2, Origin::FreeWithoutAlloc),
                    element(10, 0),  element(1000, 1)};
  input.initial_stack = {3};
  const std::vector<uint32_t> touched = {0, 1, 2, 4, 5, 5, 3};
  for (size_t i = 0; i < touched.size(); ++i) push_action(input, touched[i], static_cast<EventIndex>(2 * i));
  return input;
}

}  // namespace snapscope::testing
