// What the cursor panels compute at a state: tree and moment totals agree with the live set,
// a node's allocations, node identity across rebuilds, the background worker, heat colors.
#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <thread>

#include "core/analysis/state_mapping.h"
#include "core/cursor/analysis_worker.h"
#include "core/cursor/call_tree_members.h"
#include "core/cursor/element_marks.h"
#include "unit/support/test_analysis_fixtures.h"

using namespace snapscope;
using namespace snapscope::testing;

namespace {

uint32_t child_labelled(const CallTree& tree, const StackSource& source, uint32_t node,
                        const std::string& label) {
  for (uint32_t child : tree.node(node).children) {
    if (tree.label(child, source) == label) return child;
  }
  FAIL("no child " << label);
  return kNoIndex;
}

std::vector<uint32_t> sorted(std::vector<uint32_t> values) {
  std::sort(values.begin(), values.end());
  return values;
}

}  // namespace

TEST_CASE("analysis at the peak: trees and moment rows add up to the live bytes") {
  const FakeStackSource source = model_stacks();
  const Timeline timeline(model_replay());
  const CursorAnalysis analysis = analyze_cursor(timeline, peak_state(timeline), source, true);
  CHECK(analysis.timeline == &timeline);
  CHECK(analysis.top_down.total_bytes() == timeline.peak_bytes());
  CHECK(analysis.bottom_up.total_bytes() == timeline.peak_bytes());
  uint64_t rows = 0;
  for (const MomentRow& row : analysis.moment.rows) rows += row.bytes;
  CHECK(rows == timeline.peak_bytes());
  CHECK(analysis.live_locations.size() == analysis.live.size());
  CHECK(analysis.moment.rows.back().label == std::string(kUntracedLabel));
  const std::vector<uint32_t> untraced = analysis.elements_at_location(kUntracedLocation);
  CHECK(sorted(untraced) == std::vector<uint32_t>{3, 4});
}

TEST_CASE("a node's allocations: its subtree in either direction, and the untraced node") {
  const FakeStackSource source = model_stacks();
  const Timeline timeline(model_replay());
  const std::vector<LiveElement> live = live_elements(timeline, 5);
  const CallTree top_down = build_call_tree(live, source, {TreeDirection::TopDown, true});
  const uint32_t main = child_labelled(top_down, source, CallTree::kRoot, "train.py:5 (main)");
  CHECK(sorted(elements_under(top_down, main, live, source)) == std::vector<uint32_t>{0, 1, 2, 5});
  const uint32_t forward = child_labelled(top_down, source, main, "model.py:20 (forward)");
  const uint32_t weights = child_labelled(top_down, source, forward, "model.py:10 (alloc_weights)");
  CHECK(sorted(elements_under(top_down, weights, live, source)) == std::vector<uint32_t>{0, 2, 5});
  const uint32_t untraced = child_labelled(top_down, source, CallTree::kRoot, std::string(kUntracedLabel));
  CHECK(sorted(elements_under(top_down, untraced, live, source)) == std::vector<uint32_t>{3, 4});
  CHECK(elements_under(top_down, CallTree::kRoot, live, source).size() == live.size());

  const CallTree bottom_up = build_call_tree(live, source, {TreeDirection::BottomUp, true});
  const uint32_t act = child_labelled(bottom_up, source, CallTree::kRoot, "layers.py:30 (alloc_act)");
  CHECK(elements_under(bottom_up, act, live, source) == std::vector<uint32_t>{1});

  const CallTree unfiltered = build_call_tree(live, source, {TreeDirection::TopDown, false});
  const uint32_t noise = child_labelled(unfiltered, source, CallTree::kRoot, "train.py:5 (main)");
  CHECK(elements_under(unfiltered, noise, live, source).size() == 4);
}

TEST_CASE("a node keeps its identity by frame path when the tree is rebuilt at another state") {
  const FakeStackSource source = model_stacks();
  const Timeline timeline(model_replay());
  const std::vector<LiveElement> at_peak = live_elements(timeline, 5);
  const CallTree peak_tree = build_call_tree(at_peak, source, {TreeDirection::TopDown, true});
  const uint32_t main = child_labelled(peak_tree, source, CallTree::kRoot, "train.py:5 (main)");
  const uint32_t forward = child_labelled(peak_tree, source, main, "model.py:20 (forward)");
  const std::vector<FrameId> path = node_path(peak_tree, forward);
  CHECK(path == std::vector<FrameId>{3, 2});
  CHECK(node_at_path(peak_tree, path) == forward);

  const std::vector<LiveElement> early = live_elements(timeline, 1);  // element 0 and pre-existing 3
  const CallTree early_tree = build_call_tree(early, source, {TreeDirection::TopDown, true});
  const auto again = node_at_path(early_tree, path);
  REQUIRE(again.has_value());
  CHECK(early_tree.label(*again, source) == "model.py:20 (forward)");
  CHECK(early_tree.node(*again).bytes == 100);
  const std::vector<FrameId> act_path{3, 2, 5};
  CHECK_FALSE(node_at_path(early_tree, act_path).has_value());  // nothing allocated there yet
  const std::vector<FrameId> untraced{kUntracedStep};
  REQUIRE(node_at_path(early_tree, untraced).has_value());
  CHECK(early_tree.node(*node_at_path(early_tree, untraced)).bytes == 70);
}

TEST_CASE("the worker computes the newest request and matches a direct computation") {
  auto source = std::make_shared<FakeStackSource>(model_stacks());
  const Timeline timeline(model_replay());
  AnalysisWorker worker;
  worker.request({&timeline, source, 1, true});
  worker.request({&timeline, source, 5, true});
  std::shared_ptr<const CursorAnalysis> result;
  for (int i = 0; i < 500 && (worker.busy() || !result || result->state != 5); ++i) {
    if (auto taken = worker.take_result()) result = taken;
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  if (auto taken = worker.take_result()) result = taken;
  REQUIRE(result);
  CHECK(result->state == 5);
  CHECK(result->top_down.total_bytes() == 1530);
  const auto direct = AnalysisWorker::compute({&timeline, source, 5, true});
  CHECK(direct->moment.rows.size() == result->moment.rows.size());
  worker.request({&timeline, source, 7, false});
  worker.wait_idle();
  CHECK_FALSE(worker.busy());
}

TEST_CASE("element marks and the heat scale") {
  ElementMarks marks;
  const std::vector<uint32_t> elements{3, 1, 3, 99};
  marks.assign(10, elements);
  CHECK(marks.count() == 2);  // duplicates once, out of range ignored
  CHECK(marks.elements() == std::vector<uint32_t>{3, 1});
  CHECK(marks.contains(1));
  CHECK(marks.contains(3));
  CHECK_FALSE(marks.contains(2));
  CHECK_FALSE(marks.contains(99));
  marks.clear();
  CHECK(marks.empty());
  const uint32_t cold = heat_color(0), hot = heat_color(1), mid = heat_color(0.25);
  CHECK((cold & 0xff) > (cold >> 16));  // blue dominates
  CHECK((hot >> 16) > (hot & 0xff));    // red dominates
  CHECK((mid >> 16) > (cold >> 16));
  CHECK((mid >> 16) < (hot >> 16));
  CHECK(heat_color(-1) == cold);
  CHECK(heat_color(5) == hot);
}
