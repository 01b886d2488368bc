// Hand-built replay inputs: actions carry no event (Timeline reads it from the element), so a
// test that gives an action an event records it on the element, as derive_replay_input does.
#pragma once

#include <algorithm>
#include <cstdint>

#include "core/timeline/replay_input.h"

namespace snapscope::testing {

// Appends an action on `elem` at trace event `event`: the element's alloc if this is its first
// action and it is not on the initial stack (an alloc_event already set to `event` counts as
// not yet acted on), else its free. An element out of range is pushed as it is.
inline void push_action(ReplayInput& input, uint32_t elem, EventIndex event) {
  if (elem >= input.elements.size()) {  // a broken input, for Timeline to refuse
    input.actions.push_back({elem});
    return;
  }
  ReplayElement& element = input.elements[elem];
  const bool allocated = element.alloc_event >= 0 && element.alloc_event != event;
  const bool frees = allocated || std::find(input.initial_stack.begin(), input.initial_stack.end(), elem) !=
                                      input.initial_stack.end();
  (frees ? element.free_event : element.alloc_event) = event;
  input.actions.push_back({elem});
}

}  // namespace snapscope::testing
