#include "unit/support/replay_checks.h"

#include <doctest/doctest.h>

namespace snapscope::test {
namespace {

void check_same_element(const ReplayElement& a, const ReplayElement& b) {
  CHECK(a.addr == b.addr);
  CHECK(a.size == b.size);
  CHECK(a.alloc_event == b.alloc_event);
  CHECK(a.free_event == b.free_event);
  CHECK(a.stack == b.stack);
  CHECK(a.origin == b.origin);
  CHECK(a.merged_free == b.merged_free);
}

}  // namespace

void check_same_replay(const ReplayInput& a, const ReplayInput& b) {
  CHECK(a.device == b.device);
  CHECK(a.kind == b.kind);
  CHECK(a.synthetic_action == b.synthetic_action);
  REQUIRE(a.elements.size() == b.elements.size());
  for (size_t i = 0; i < a.elements.size(); ++i) {
    INFO("element " << i);
    check_same_element(a.elements[i], b.elements[i]);
  }
  CHECK(a.initial_stack == b.initial_stack);
  REQUIRE(a.actions.size() == b.actions.size());
  for (size_t i = 0; i < a.actions.size(); ++i) {
    CHECK(a.actions[i].elem == b.actions[i].elem);
  }
  CHECK(a.action_time_us == b.action_time_us);
  CHECK(a.element_blocks == b.element_blocks);
  CHECK(a.element_segments == b.element_segments);
}

}  // namespace snapscope::test
