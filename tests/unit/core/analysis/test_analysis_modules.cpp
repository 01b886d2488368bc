// Memory by module: module paths from stacks, repeated calls told apart, sizes summing to the live total.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "core/analysis/module_calls.h"
#include "core/analysis/module_instances.h"
#include "core/analysis/module_tree.h"
#include "unit/support/test_analysis_fixtures.h"

using namespace snapscope;
using namespace snapscope::testing;

namespace {

constexpr const char* kModulePy = "/venv/lib/python3.12/site-packages/torch/nn/modules/module.py";

// A GPT whose forward (model.py:50) runs two blocks; each block (model.py:20, :21) calls attention
// (attn.py) then an MLP (mlp.py). Stacks, innermost first:
// 1 attention, 2 MLP line 7, 3 GPT's own head (model.py:52), 4 optimizer, 5 an autograd node,
// 6 MLP line 8.
FakeStackSource gpt_stacks() {
  FakeStackSource source;
  source.frames = {{"_wrapped_call_impl", kModulePy, 1739},
                   {"_call_impl", kModulePy, 1750},
                   {"main", "train.py", 10},
                   {"forward", "model.py", 50},
                   {"forward", "model.py", 20},
                   {"forward", "model.py", 21},
                   {"forward", "attn.py", 5},
                   {"forward", "mlp.py", 7},
                   {"forward", "model.py", 52},
                   {"step", "optim.py", 3},
                   {"torch::autograd::generated::MmBackward0::apply(std::vector<at::Tensor>&&)", "", 0},
                   {"forward", "mlp.py", 8}};
  source.stacks.push_back({6, 1, 0, 4, 1, 0, 3, 1, 0, 2});
  source.stacks.push_back({7, 1, 0, 5, 1, 0, 3, 1, 0, 2});
  source.stacks.push_back({8, 1, 0, 2});
  source.stacks.push_back({9, 2});
  source.stacks.push_back({10});
  source.stacks.push_back({11, 1, 0, 5, 1, 0, 3, 1, 0, 2});
  return source;
}

struct Alloc {
  uint64_t size;
  StackId stack;
};

std::vector<ReplayElement> elements_of(const std::vector<Alloc>& allocs) {
  std::vector<ReplayElement> elements;
  for (size_t i = 0; i < allocs.size(); ++i) {
    ReplayElement e = element(allocs[i].size, allocs[i].stack,
                              allocs[i].stack == 0 ? Origin::SnapshotBlock : Origin::Traced);
    if (allocs[i].stack != 0) e.alloc_event = static_cast<EventIndex>(i);
    elements.push_back(e);
  }
  return elements;
}

std::vector<LiveElement> all_live(const std::vector<ReplayElement>& elements) {
  std::vector<LiveElement> live;
  for (uint32_t i = 0; i < elements.size(); ++i) live.push_back({i, elements[i].size, elements[i].stack});
  return live;
}

const ModuleRow& row_at(const ModuleTree& tree, const std::string& path) {
  for (const ModuleRow& row : tree.rows)
    if (row.path == path) return row;
  FAIL("no row " << path);
  return tree.rows.front();
}

}  // namespace

TEST_CASE("modules: the frames just inside module.py's calls are the module path") {
  const std::vector<PyFrame> frames = {
      {"einsum", "torch/functional.py", 407},  {"forward", "attn.py", 5},
      {"_call_impl", kModulePy, 1750},         {"_PyEval_EvalFrameDefault", "??", 0},
      {"_wrapped_call_impl", kModulePy, 1739}, {"forward", "/src/model.py", 20},
      {"_call_impl", kModulePy, 1750},         {"main", "train.py", 10}};
  const std::vector<ModuleCall> calls = module_calls(frames);
  REQUIRE(calls.size() == 2);
  CHECK(module_call_label(calls[0]) == "forward (model.py) <- train.py:10");
  CHECK(calls[0].line == 20);
  CHECK(module_call_label(calls[1]) == "forward (attn.py) <- model.py:20");
  CHECK(calls[1].line == 5);
  CHECK(module_calls(std::vector<PyFrame>{{"step", "optim.py", 3}}).empty());
}

TEST_CASE("modules: a joined forward stack parses, Windows paths included") {
  const std::vector<PyFrame> frames =
      parse_forward_frames("C:\\src\\attn.py:5:forward\nnot a frame\nmodel.py:20:forward");
  REQUIRE(frames.size() == 2);
  CHECK(frames[0].filename == "C:\\src\\attn.py");
  CHECK(frames[0].line == 5);
  CHECK(frames[0].name == "forward");
  CHECK(frames[1].filename == "model.py");
}

TEST_CASE("modules: repeated blocks become [k] and the tree sums to the live total") {
  const FakeStackSource source = gpt_stacks();
  // Block 0: attention 100, MLP 200; block 1: attention 101, MLP 202 and 50 more on a later MLP
  // line; GPT's head 1000; optimizer 10; backward 20 without and 30 with a forward stack; 5 untraced.
  const std::vector<ReplayElement> elements = elements_of(
      {{5, 0}, {100, 1}, {200, 2}, {101, 1}, {202, 2}, {50, 6}, {1000, 3}, {10, 4}, {20, 5}, {30, 5}});
  const std::string forward =
      std::string("attn.py:5:forward\n") + kModulePy + ":1750:_call_impl\nmodel.py:20:forward\n" + kModulePy +
      ":1750:_call_impl\nmodel.py:50:forward\n" + kModulePy + ":1750:_call_impl\ntrain.py:10:main";
  const ModuleInstances modules(elements, source, [&](uint32_t elem) {
    return elem == 9 ? std::string_view(forward) : std::string_view{};
  });
  const ModuleTree tree = build_module_tree(all_live(elements), modules, 3);
  CHECK(tree.live_bytes == 1718);
  uint64_t top = 0;
  for (const ModuleRow& row : tree.rows) top += row.depth == 0 ? row.bytes : 0;
  CHECK(top == tree.live_bytes);

  const std::string gpt = "forward (model.py) <- train.py:10";
  const std::string block = gpt + " > forward (model.py) <- model.py:50";
  CHECK(row_at(tree, gpt).bytes == 1653);
  CHECK(row_at(tree, gpt).self_bytes == 1000);
  CHECK(row_at(tree, block + " [0]").bytes == 300);
  CHECK(row_at(tree, block + " [1]").bytes == 353);
  CHECK(row_at(tree, block + " [1] > forward (mlp.py) <- model.py:21").bytes == 252);
  CHECK(row_at(tree, block + " [1] > forward (mlp.py) <- model.py:21").count == 2);
  CHECK(row_at(tree, block + " [0] > forward (attn.py) <- model.py:20").bytes == 100);
  CHECK(row_at(tree, std::string(kOutsideModulesLabel)).bytes == 10);
  CHECK(row_at(tree, std::string(kBackwardNoForwardLabel)).bytes == 20);
  CHECK(row_at(tree, std::string(kUntracedModulesLabel)).bytes == 5);
  // Backward keeps no call order, so its forward path has no [k].
  CHECK(row_at(tree, std::string(kBackwardByForwardLabel) + " > " + gpt +
                         " > forward (model.py) <- model.py:50 > forward (attn.py) <- model.py:20")
            .bytes == 30);
  // Depth-first: the largest top-level row first, its children right below it.
  CHECK(tree.rows[0].path == gpt);
  CHECK(tree.rows[1].path == block + " [1]");
}

TEST_CASE("modules: a live subset counts only what is live; text and CSV show every row") {
  const FakeStackSource source = gpt_stacks();
  const std::vector<ReplayElement> elements = elements_of({{100, 1}, {200, 2}, {101, 1}});
  const ModuleInstances modules(elements, source);
  const ModuleTree tree = build_module_tree(std::vector<LiveElement>{{2, 101, 1}}, modules, 0);
  REQUIRE(tree.rows.size() == 3);
  CHECK(tree.rows[1].label == "forward (model.py) <- model.py:50 [1]");
  CHECK(tree.rows[2].bytes == 101);
  CHECK(module_tree_csv(tree).starts_with("depth,bytes,self_bytes,count,module,path\n0,101,0,1,"));
  CHECK(module_tree_text(tree).find("    forward (attn.py) <- model.py:20") != std::string::npos);
}
