// Call trees (top-down, bottom-up, filtered or not), focus and search on a hand-built replay.
#include <doctest/doctest.h>

#include <algorithm>

#include "core/analysis/call_tree.h"
#include "core/analysis/call_tree_navigator.h"
#include "core/analysis/live_elements.h"
#include "unit/support/test_analysis_fixtures.h"

using namespace snapscope;
using namespace snapscope::testing;

namespace {

// Labels of a node's children in display order.
std::vector<std::string> child_labels(const CallTree& tree, const StackSource& source, uint32_t node) {
  std::vector<std::string> labels;
  for (uint32_t child : tree.node(node).children) labels.push_back(tree.label(child, source));
  return labels;
}

uint32_t child_named(const CallTree& tree, const StackSource& source, uint32_t node,
                     const std::string& label) {
  for (uint32_t child : tree.node(node).children) {
    if (tree.label(child, source) == label) return child;
  }
  FAIL("no child " << label);
  return kNoIndex;
}

// State 5 of model_replay: weights 100 + 50 + 1000, activations 300, pre-existing 70, untraced 10.
struct PeakTree {
  FakeStackSource source = model_stacks();
  Timeline timeline{model_replay()};
  std::vector<LiveElement> live = live_elements(timeline, 5);
};

}  // namespace

TEST_CASE("analysis: top-down tree, filtered, rolls bytes up to the root") {
  PeakTree f;
  const CallTree tree = build_call_tree(f.live, f.source);
  CHECK(tree.total_bytes() == f.timeline.total_at_state(5));
  CHECK(tree.node(CallTree::kRoot).count == 6);
  CHECK(child_labels(tree, f.source, CallTree::kRoot) ==
        std::vector<std::string>{"train.py:5 (main)", "untraced / pre-existing"});

  const uint32_t main_node = tree.node(CallTree::kRoot).children[0];
  CHECK(tree.node(main_node).bytes == 1450);
  CHECK(tree.node(main_node).self_bytes == 0);
  // The ceval.c frame between main and forward is filtered out.
  const uint32_t forward = child_named(tree, f.source, main_node, "model.py:20 (forward)");
  CHECK(child_labels(tree, f.source, forward) ==
        std::vector<std::string>{"model.py:10 (alloc_weights)", "layers.py:30 (alloc_act)"});
  const uint32_t weights = tree.node(forward).children[0];
  CHECK(tree.node(weights).bytes == 1150);
  CHECK(tree.node(weights).self_bytes == 1150);
  CHECK(tree.node(weights).count == 3);
  CHECK(tree.node(weights).depth == 3);
  CHECK(tree.percent_of_total(weights) == doctest::Approx(100.0 * 1150 / 1530));

  const uint32_t untraced = tree.node(CallTree::kRoot).children[1];
  CHECK(tree.node(untraced).kind == CallTreeNodeKind::Untraced);
  CHECK(tree.node(untraced).bytes == 80);
  CHECK(tree.node(untraced).count == 2);
  CHECK(tree.path_to(weights) == std::vector<uint32_t>{CallTree::kRoot, main_node, forward, weights});
}

TEST_CASE("analysis: turning the frame filter off keeps interpreter and unwinder frames") {
  PeakTree f;
  const CallTree tree = build_call_tree(f.live, f.source, {TreeDirection::TopDown, false});
  CHECK_FALSE(tree.filtered());
  const uint32_t main_node = child_named(tree, f.source, CallTree::kRoot, "train.py:5 (main)");
  const uint32_t eval = child_named(tree, f.source, main_node, "ceval.c:1 (PyEval_EvalFrame)");
  const uint32_t forward = child_named(tree, f.source, eval, "model.py:20 (forward)");
  const uint32_t weights = child_named(tree, f.source, forward, "model.py:10 (alloc_weights)");
  const uint32_t unwind = child_named(tree, f.source, weights, "unwind.cpp:1 (unwind::unwind)");
  CHECK(tree.node(unwind).self_bytes == 1150);
  CHECK(tree.node(weights).self_bytes == 0);
  CHECK(tree.total_bytes() == 1530);
}

TEST_CASE("analysis: bottom-up tree starts at the allocating frame, then its callers") {
  PeakTree f;
  const CallTree tree = build_call_tree(f.live, f.source, {TreeDirection::BottomUp, true});
  CHECK(child_labels(tree, f.source, CallTree::kRoot) ==
        std::vector<std::string>{"model.py:10 (alloc_weights)", "layers.py:30 (alloc_act)",
                                 "untraced / pre-existing"});
  const uint32_t weights = tree.node(CallTree::kRoot).children[0];
  const uint32_t forward = child_named(tree, f.source, weights, "model.py:20 (forward)");
  const uint32_t main_node = child_named(tree, f.source, forward, "train.py:5 (main)");
  CHECK(tree.node(main_node).bytes == 1150);
  CHECK(tree.node(main_node).self_bytes == 1150);
  CHECK(tree.node(main_node).children.empty());
}

TEST_CASE("analysis: a stack made only of noise frames stays visible") {
  FakeStackSource source = model_stacks();
  const std::vector<LiveElement> live = {{0, 40, 3}};
  const CallTree tree = build_call_tree(live, source);
  CHECK(tree.total_bytes() == 40);
  CHECK(child_labels(tree, source, CallTree::kRoot) ==
        std::vector<std::string>{"ceval.c:1 (PyEval_EvalFrame)"});
}

TEST_CASE("analysis: recursion makes distinct nodes per depth, bytes counted once per node") {
  FakeStackSource source = model_stacks();
  source.stacks.push_back({1, 2, 2, 3});  // forward calls itself
  const std::vector<LiveElement> live = {{0, 8, 4}};
  const CallTree tree = build_call_tree(live, source);
  const uint32_t main_node = tree.node(CallTree::kRoot).children[0];
  const uint32_t outer = tree.node(main_node).children[0];
  const uint32_t inner = tree.node(outer).children[0];
  CHECK(tree.label(outer, source) == tree.label(inner, source));
  CHECK(tree.node(outer).bytes == 8);
  CHECK(tree.node(inner).bytes == 8);
  CHECK(tree.size() == 5);
}

TEST_CASE("analysis: focus a subtree and back") {
  PeakTree f;
  const CallTree tree = build_call_tree(f.live, f.source);
  CallTreeNavigator navigator(tree, f.source);
  CHECK(navigator.root() == CallTree::kRoot);
  CHECK_FALSE(navigator.unfocus());
  const uint32_t main_node = tree.node(CallTree::kRoot).children[0];
  const uint32_t forward = tree.node(main_node).children[0];
  navigator.focus(main_node);
  navigator.focus(forward);
  CHECK(navigator.root() == forward);
  // Searching a focused tree only finds nodes under the focus.
  CHECK(navigator.search("train").empty());
  CHECK(navigator.unfocus());
  CHECK(navigator.root() == main_node);
  navigator.reset_focus();
  CHECK(navigator.root() == CallTree::kRoot);
  CHECK_THROWS(navigator.focus(uint32_t(tree.size())));
}

TEST_CASE("analysis: search finds function and file names in display order, n/N wrap") {
  PeakTree f;
  const CallTree tree = build_call_tree(f.live, f.source);
  CallTreeNavigator navigator(tree, f.source);
  const std::vector<uint32_t> by_file = navigator.search("MODEL.PY");  // case-insensitive
  REQUIRE(by_file.size() == 2);
  CHECK(tree.label(by_file[0], f.source) == "model.py:20 (forward)");
  CHECK(tree.label(by_file[1], f.source) == "model.py:10 (alloc_weights)");

  navigator.set_query("alloc_");
  REQUIRE(navigator.matches().size() == 2);
  // Display order: the larger subtree (weights) comes first.
  CHECK(tree.label(navigator.current_match(), f.source) == "model.py:10 (alloc_weights)");
  CHECK(tree.label(navigator.next_match(), f.source) == "layers.py:30 (alloc_act)");
  CHECK(tree.label(navigator.next_match(), f.source) == "model.py:10 (alloc_weights)");
  CHECK(tree.label(navigator.previous_match(), f.source) == "layers.py:30 (alloc_act)");

  navigator.set_query("pre-existing");
  REQUIRE(navigator.matches().size() == 1);
  CHECK(tree.node(navigator.current_match()).kind == CallTreeNodeKind::Untraced);

  navigator.set_query("no such frame");
  CHECK(navigator.current_match() == kNoIndex);
  CHECK(navigator.next_match() == kNoIndex);
}

TEST_CASE("analysis: call tree text lists the biggest subtrees first") {
  PeakTree f;
  const CallTree tree = build_call_tree(f.live, f.source);
  const std::string text = call_tree_text(tree, f.source, CallTree::kRoot, 1, 10.0);
  CHECK(text ==
        "100.00%  1.49 KiB  6  all live memory\n"
        "   94.77%  1.42 KiB  4  train.py:5 (main)\n");
}
