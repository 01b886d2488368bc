// Leaks need repetition: memory made in one step and still live after the next, in at least two
// steps, and still growing. What a trace merely ends with (a forward whose backward was not
// recorded) is reported as live at the end, never as a leak.
#include <doctest/doctest.h>

#include "core/findings/findings.h"
#include "core/findings/step_boundaries.h"
#include "unit/core/classify/test_classify_fixtures.h"
#include "unit/support/replay_actions.h"

using namespace snapscope;
using namespace snapscope::testing;

namespace {

constexpr uint64_t kMiB = uint64_t{1} << 20;
constexpr uint32_t kNever = UINT32_MAX;

// `steps` training steps without annotations (forward, backward, optimizer). Each step keeps
// 2 MiB from leaky.py:7 (stack 6), freed in the forward `lag` steps later (0: at the end of
// its own step; kNever: never).
ReplayInput kept_steps(uint32_t steps, uint32_t lag) {
  ReplayInput input;
  std::vector<uint32_t> kept;
  for (uint32_t step = 0; step < steps; ++step) {
    const auto first = static_cast<uint32_t>(input.elements.size());
    input.elements.push_back(element(100, 1));       // activation
    input.elements.push_back(element(2 * kMiB, 6));  // kept
    input.elements.push_back(element(50, 2));        // backward temporary
    input.elements.push_back(element(20, 3));        // optimizer temporary
    kept.push_back(first + 1);
    std::vector<uint32_t> order = {first, first + 1};
    if (lag != kNever && lag > 0 && step >= lag) order.push_back(kept[step - lag]);
    for (const uint32_t elem : {first + 2, first, first + 2, first + 3, first + 3}) order.push_back(elem);
    if (lag == 0) order.push_back(first + 1);
    for (const uint32_t elem : order) push_action(input, elem, static_cast<EventIndex>(input.actions.size()));
  }
  return input;
}

// One whole step, then the trace stops in the next forward: two 2 MiB activations made there
// wait for a backward pass that was never recorded.
ReplayInput ending_mid_forward() {
  ReplayInput input = kept_steps(1, 0);
  const auto first = static_cast<uint32_t>(input.elements.size());
  input.elements.push_back(element(2 * kMiB, 1));
  input.elements.push_back(element(2 * kMiB, 1));
  for (const uint32_t elem : {first, first + 1})
    push_action(input, elem, static_cast<EventIndex>(input.actions.size()));
  return input;
}

struct Found {
  Timeline timeline;
  std::vector<Finding> findings;
};

Found findings_of(ReplayInput input) {
  static const FakeStackSource stacks = training_stacks();
  Timeline timeline(std::move(input));
  const Classification classification = classify_allocations({timeline, stacks, {}, nullptr});
  std::vector<Finding> findings = find_findings({timeline, classification, stacks, nullptr, std::nullopt});
  return {std::move(timeline), std::move(findings)};
}

const Finding* find_kind(const std::vector<Finding>& findings, FindingKind kind) {
  for (const Finding& finding : findings) {
    if (finding.kind == kind) return &finding;
  }
  return nullptr;
}

}  // namespace

TEST_CASE("leaks: a trace that ends inside a forward pass has no leak, only memory live at the end") {
  const Found found = findings_of(ending_mid_forward());
  CHECK(find_kind(found.findings, FindingKind::Leak) == nullptr);
  CHECK(find_kind(found.findings, FindingKind::StepGrowth) == nullptr);
  const Finding* live = find_kind(found.findings, FindingKind::LiveAtEnd);
  REQUIRE(live != nullptr);
  CHECK(live->bytes == 4 * kMiB);
  CHECK(live->title == "Live at the end of the trace: 4 MiB allocated during recording");
  CHECK(live->text.find("The trace stops inside a forward pass") != std::string::npos);
  CHECK(live->text.find("this trace shows two steps") != std::string::npos);
  CHECK(live->text.find("\n  4 MiB in 2 allocations: /work/model.py:10 (forward)") != std::string::npos);
  CHECK(live->state == found.timeline.action_count());
  CHECK(finding_kind_name(FindingKind::LiveAtEnd) == std::string("live at end"));
}

TEST_CASE("leaks: a location that keeps memory every step leaks the bytes that outlived a step") {
  const Found found = findings_of(kept_steps(4, kNever));
  const Finding* leak = find_kind(found.findings, FindingKind::Leak);
  REQUIRE(leak != nullptr);
  // Steps 0, 1 and 2 kept 2 MiB each past the following step; step 3's has no step after it.
  CHECK(leak->bytes == 6 * kMiB);
  CHECK(leak->title == "Leak: 6 MiB kept step after step by 1 location");
  CHECK(leak->text.find("6 MiB in 3 allocations made in 3 steps: /work/leaky.py:7 (leak_fn)") !=
        std::string::npos);
  REQUIRE(leak->elem.has_value());
  CHECK(found.timeline.element(*leak->elem).size == 2 * kMiB);
  const Finding* live = find_kind(found.findings, FindingKind::LiveAtEnd);
  REQUIRE(live != nullptr);
  CHECK(live->bytes == 8 * kMiB);
}

TEST_CASE("leaks: two steps are too few to call anything a leak") {
  const Found found = findings_of(kept_steps(2, kNever));
  CHECK(find_kind(found.findings, FindingKind::Leak) == nullptr);
  const Finding* live = find_kind(found.findings, FindingKind::LiveAtEnd);
  REQUIRE(live != nullptr);
  CHECK(live->bytes == 4 * kMiB);
}

TEST_CASE("leaks: steady-state steps do not leak, even when memory is freed a few steps later") {
  for (const uint32_t lag : {0u, 1u, 3u}) {
    CAPTURE(lag);
    const Found found = findings_of(kept_steps(8, lag));
    CHECK(find_kind(found.findings, FindingKind::Leak) == nullptr);
    CHECK(find_kind(found.findings, FindingKind::StepGrowth) == nullptr);
    // What the last `lag` steps keep is still live at the end: a fact, not a leak.
    const Finding* live = find_kind(found.findings, FindingKind::LiveAtEnd);
    if (lag == 0) {
      CHECK(live == nullptr);
    } else {
      REQUIRE(live != nullptr);
      CHECK(live->bytes == lag * 2 * kMiB);
      CHECK(live->text.find("over the 8 steps found, no location kept memory") != std::string::npos);
    }
  }
}

TEST_CASE("leaks: step boundaries come from forwards that follow another phase") {
  const FakeStackSource stacks = training_stacks();
  const Timeline timeline(kept_steps(3, 0));
  const Classification classification = classify_allocations({timeline, stacks, {}, nullptr});
  // 8 actions a step: each step starts with its forward's first allocation.
  CHECK(step_starts(classification) == std::vector<size_t>{0, 8, 16});
}
