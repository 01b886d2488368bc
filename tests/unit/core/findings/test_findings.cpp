// Findings on hand-built traces: the peak paragraph, leak candidates, step growth, OOM forensics
// and recording caveats.
#include <doctest/doctest.h>

#include "core/findings/findings.h"
#include "unit/core/classify/test_classify_fixtures.h"
#include "unit/support/replay_actions.h"

using namespace snapscope;
using namespace snapscope::testing;

namespace {

constexpr uint64_t kMiB = uint64_t{1} << 20;

// Three steps without annotations; each leaks 2 MiB from leaky.py:7 (stack 6).
ReplayInput leaking_steps() {
  ReplayInput input;
  for (uint32_t step = 0; step < 3; ++step) {
    const auto first = static_cast<uint32_t>(input.elements.size());
    input.elements.push_back(element(100, 1));       // activation
    input.elements.push_back(element(2 * kMiB, 6));  // the leak
    input.elements.push_back(element(50, 2));        // backward temporary
    input.elements.push_back(element(20, 3));        // optimizer temporary
    for (const uint32_t offset : {0u, 1u, 2u, 0u, 2u, 3u, 3u}) {
      const auto event = static_cast<EventIndex>(input.actions.size());
      push_action(input, first + offset, event);
    }
  }
  return input;
}

const Finding* find_kind(const std::vector<Finding>& findings, FindingKind kind) {
  for (const Finding& finding : findings) {
    if (finding.kind == kind) return &finding;
  }
  return nullptr;
}

class VectorEventSource : public EventSource {
 public:
  explicit VectorEventSource(std::vector<AllocatorEvent> events) : events_(std::move(events)) {}
  size_t size() const override { return events_.size(); }
  void read(size_t begin, size_t end, std::vector<AllocatorEvent>& out) override {
    out.assign(events_.begin() + static_cast<ptrdiff_t>(begin),
               events_.begin() + static_cast<ptrdiff_t>(end));
  }

 private:
  std::vector<AllocatorEvent> events_;
};

}  // namespace

TEST_CASE("findings: the peak paragraph names the phase, the categories and the top sites") {
  const FakeStackSource stacks = training_stacks();
  const Timeline timeline(training_step());
  const Classification classification = classify_allocations({timeline, stacks, {}, nullptr});
  const std::vector<Finding> findings =
      find_findings({timeline, classification, stacks, nullptr, std::nullopt});
  const Finding* peak = find_kind(findings, FindingKind::Peak);
  REQUIRE(peak != nullptr);
  CHECK(peak->title == "Peak 1.61 KiB at event #11");
  CHECK(peak->bytes == 1652);
  CHECK(
      peak->text ==
      "The peak is reached at event #11, in the optimizer step. By category: optimizer state 800 B (48.4%), "
      "parameter 400 B (24.2%), gradient 400 B (24.2%), autograd / workspace 32 B (1.9%), temporary 20 B "
      "(1.2%). Top sites: /work/train.py:1 (main) 820 B, MmBackward0 400 B, untraced / pre-existing 400 B.");
  CHECK(peak->state == 12u);
  CHECK(peak->elem.has_value());
  // Parameters, gradients, optimizer state and the workspace stay by design: no leak.
  CHECK(find_kind(findings, FindingKind::Leak) == nullptr);
  // zero_grad freed a gradient the trace never saw allocated.
  const Finding* missing = find_kind(findings, FindingKind::Caveat);
  REQUIRE(missing != nullptr);
  CHECK(missing->title == "The trace starts mid-run: 1 frees of memory it never saw allocated");
}

TEST_CASE("findings: a planted leak grows step to step and is named by location") {
  const FakeStackSource stacks = training_stacks();
  const Timeline timeline(leaking_steps());
  const Classification classification = classify_allocations({timeline, stacks, {}, nullptr});
  const std::vector<Finding> findings =
      find_findings({timeline, classification, stacks, nullptr, std::nullopt});
  const Finding* growth = find_kind(findings, FindingKind::StepGrowth);
  REQUIRE(growth != nullptr);
  CHECK(growth->title == "Memory grows by 4 MiB over 2 steps");
  CHECK(growth->bytes == 4 * kMiB);
  CHECK(growth->text.find("+4 MiB: /work/leaky.py:7 (leak_fn)") != std::string::npos);
  // Steps 0 and 1 each kept 2 MiB past the following step; step 2's 2 MiB has no step after it,
  // so it is only live at the end.
  const Finding* leak = find_kind(findings, FindingKind::Leak);
  REQUIRE(leak != nullptr);
  CHECK(leak->title == "Leak: 4 MiB kept step after step by 1 location");
  CHECK(leak->bytes == 4 * kMiB);
  CHECK(leak->text.find("4 MiB in 2 allocations made in 2 steps: /work/leaky.py:7 (leak_fn)") !=
        std::string::npos);
  CHECK(leak->state == timeline.action_count());
  const Finding* live = find_kind(findings, FindingKind::LiveAtEnd);
  REQUIRE(live != nullptr);
  CHECK(live->bytes == 6 * kMiB);
  const nlohmann::json json = findings_json(findings, timeline);
  CHECK(json.size() == findings.size());
  CHECK(json[1]["kind"] == "step growth");
  CHECK(json[1]["bytes"] == 4 * kMiB);
  CHECK(json[2]["kind"] == "leak");
  CHECK(json[2]["bytes"] == 4 * kMiB);
  CHECK(json[3]["kind"] == "live at end");
  CHECK(json[0]["bytes"] == timeline.peak_bytes());
}

TEST_CASE("findings: an OOM with enough free bytes split into pieces advises expandable segments") {
  const FakeStackSource stacks = training_stacks();
  const Timeline timeline(training_step());
  const Classification classification = classify_allocations({timeline, stacks, {}, nullptr});
  AllocatorState final_state;
  final_state.add_segment({0x1000, 1000, 0, 0});
  final_state.add_block({0x1000, 300, 300, 0, false});
  final_state.add_block({0x1000 + 500, 200, 200, 0, false});
  AllocatorEvent oom;
  oom.action = Action::Oom;
  oom.addr = 0;  // bytes free on the device
  oom.size = 400;
  AllocatorHistory history(final_state,
                           std::make_unique<VectorEventSource>(std::vector<AllocatorEvent>{oom}));
  const std::vector<Finding> ooms = oom_findings({timeline, classification, stacks, &history, std::nullopt});
  REQUIRE(ooms.size() == 1);
  CHECK(ooms[0].title == "Out of memory at event #0: asked for 400 B, 0 B free on the device");
  CHECK(ooms[0].bytes == 400);
  CHECK(ooms[0].text.find("of which 500 B was not allocated; its largest free block was 300 B (fragmentation "
                          "40.0%)") != std::string::npos);
  CHECK(ooms[0].text.find("stream 0: largest free block 300 B") != std::string::npos);
  CHECK(ooms[0].text.find("expandable_segments:True") != std::string::npos);
}

TEST_CASE("findings: recording caveats for missing stacks and a truncated history") {
  FakeStackSource no_frames;
  ReplayInput input = training_step();
  for (ReplayElement& element : input.elements) element.stack = 0;
  const Timeline timeline(std::move(input));
  const Classification classification = classify_allocations({timeline, no_frames, {}, nullptr});
  const std::vector<Finding> findings = find_findings(
      {timeline, classification, no_frames, nullptr, std::optional<std::string>("the trace overflowed")});
  std::vector<std::string> titles;
  for (const Finding& finding : findings) {
    if (finding.kind == FindingKind::Caveat) titles.push_back(finding.title);
  }
  CHECK(titles ==
        std::vector<std::string>{"The allocator's history was truncated",
                                 "The trace starts mid-run: 1 frees of memory it never saw allocated",
                                 "No stacks were recorded", "No phases found"});
}
