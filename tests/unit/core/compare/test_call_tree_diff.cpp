// The call-tree diff: two top-down trees merged by frame label (frame ids differ between runs),
// with new and vanished paths, sorting by |delta|, and the text the --diff report prints.
#include <doctest/doctest.h>

#include "core/analysis/live_elements.h"
#include "core/compare/call_tree_diff.h"
#include "unit/support/replay_actions.h"
#include "unit/support/test_analysis_fixtures.h"

using namespace snapscope;
using namespace snapscope::testing;

namespace {

// Run B interns its frames in another order: weights grew by 1000 B, activations are gone and
// main allocates a new 500 B cache. Untraced: 10 B.
FakeStackSource run_b_stacks() {
  FakeStackSource source;
  source.frames = {{"main", "train.py", 5},
                   {"forward", "model.py", 20},
                   {"alloc_weights", "model.py", 10},
                   {"alloc_cache", "cache.py", 7}};
  source.stacks.push_back({2, 1, 0});
  source.stacks.push_back({3, 0});
  return source;
}

ReplayInput run_b_replay() {
  ReplayInput input;
  input.elements = {element(100, 1), element(50, 1), element(2000, 1), element(500, 2), element(10, 0)};
  for (uint32_t elem = 0; elem < input.elements.size(); ++elem)
    push_action(input, elem, static_cast<EventIndex>(elem));
  return input;
}

struct TwoRuns {
  FakeStackSource source_a = model_stacks();
  FakeStackSource source_b = run_b_stacks();
  Timeline timeline_a{model_replay()};
  Timeline timeline_b{run_b_replay()};
  CallTree tree_a = build_call_tree(live_elements(timeline_a, 5), source_a);
  CallTree tree_b = build_call_tree(live_elements(timeline_b, 5), source_b);
  CallTreeDiff diff = diff_call_trees(tree_a, source_a, tree_b, source_b);

  uint32_t child(uint32_t node, const std::string& label) const {
    for (uint32_t id : diff.node(node).children) {
      if (diff.node(id).label == label) return id;
    }
    FAIL("no child " << label);
    return kNoIndex;
  }
  std::vector<std::string> labels(const std::vector<uint32_t>& ids) const {
    std::vector<std::string> out;
    for (uint32_t id : ids) out.push_back(diff.node(id).label);
    return out;
  }
};

}  // namespace

TEST_CASE("call-tree diff: paths merge by label across runs, with new and vanished marked") {
  TwoRuns f;
  const TreeDiffNode& root = f.diff.node(CallTreeDiff::kRoot);
  CHECK(root.bytes_a == 1530);
  CHECK(root.bytes_b == 2660);
  CHECK(root.delta() == 1130);
  CHECK(f.labels(root.children) == std::vector<std::string>{"train.py:5 (main)", "untraced / pre-existing"});

  const uint32_t main_node = f.child(CallTreeDiff::kRoot, "train.py:5 (main)");
  CHECK(f.diff.node(main_node).delta() == 1200);
  CHECK(f.labels(f.diff.node(main_node).children) ==
        std::vector<std::string>{"model.py:20 (forward)", "cache.py:7 (alloc_cache)"});
  const uint32_t cache = f.child(main_node, "cache.py:7 (alloc_cache)");
  CHECK(f.diff.node(cache).status == DiffStatus::New);
  CHECK(f.diff.node(cache).bytes_b == 500);
  CHECK(f.diff.node(cache).nodes_a.empty());

  const uint32_t forward = f.child(main_node, "model.py:20 (forward)");
  const uint32_t weights = f.child(forward, "model.py:10 (alloc_weights)");
  CHECK(f.diff.node(weights).bytes_a == 1150);
  CHECK(f.diff.node(weights).bytes_b == 2150);
  CHECK(f.diff.node(weights).count_a == 3);
  CHECK(f.diff.node(weights).count_b == 3);
  CHECK(f.diff.node(weights).depth == 3);
  const uint32_t activations = f.child(forward, "layers.py:30 (alloc_act)");
  CHECK(f.diff.node(activations).status == DiffStatus::Vanished);
  CHECK(f.diff.node(activations).delta() == -300);
  CHECK(f.diff.path_text(weights) ==
        "train.py:5 (main) > model.py:20 (forward) > model.py:10 (alloc_weights)");
  CHECK(f.diff.node(f.child(CallTreeDiff::kRoot, "untraced / pre-existing")).delta() == -70);
}

TEST_CASE("call-tree diff: significant nodes keep their context, the text indents by depth") {
  TwoRuns f;
  CHECK(f.labels(significant_nodes(f.diff, 8, 400)) ==
        std::vector<std::string>{"all live memory", "train.py:5 (main)", "model.py:20 (forward)",
                                 "model.py:10 (alloc_weights)", "cache.py:7 (alloc_cache)"});
  // Depth 1 only: the deeper growth is cut, main stays for its own delta.
  CHECK(f.labels(significant_nodes(f.diff, 1, 400)) ==
        std::vector<std::string>{"all live memory", "train.py:5 (main)"});
  const std::string text = call_tree_diff_text(f.diff, 8, 400);
  CHECK(text.find("      model.py:10 (alloc_weights)\n") != std::string::npos);
  CHECK(text.find("    cache.py:7 (alloc_cache)  [new]\n") != std::string::npos);
  CHECK(text.find("alloc_act") == std::string::npos);
}

TEST_CASE("call-tree diff: a run compared with itself is zero everywhere") {
  TwoRuns f;
  const CallTreeDiff self = diff_call_trees(f.tree_a, f.source_a, f.tree_a, f.source_a);
  CHECK(self.size() == f.tree_a.size());
  for (uint32_t id = 0; id < self.size(); ++id) {
    CHECK(self.node(id).delta() == 0);
    CHECK(self.node(id).status == DiffStatus::Both);
  }
  CHECK(significant_nodes(self, 100, 1) == std::vector<uint32_t>{CallTreeDiff::kRoot});
}
