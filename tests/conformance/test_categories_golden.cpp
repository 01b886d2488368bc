// Categories at the peak of every real snapshot, against a golden table written from reading the
// stacks (docs/RULES.md has the rules; each row says why its bytes are that category). A snapshot
// missing from $SNAPSCOPE_SNAPSHOT_DIR is skipped; every category not listed must be empty.
#include <doctest/doctest.h>

#include <map>
#include <string>
#include <vector>

#include "conformance/real_snapshots.h"
#include "converter/source_findings.h"
#include "core/analysis/state_mapping.h"

using namespace snapscope;
using namespace snapscope::conformance;
namespace fs = std::filesystem;

namespace {

struct GoldenRow {
  const char* snapshot;
  int device;
  Category category;
  uint64_t bytes;
  const char* why;
};

// clang-format off
const GoldenRow kGolden[] = {
  // One GPT step: zero_grad, forward, backward, a hand-written AdamW that makes new state.
  {"gpt_train_step_ctx128", 0, Category::OptimizerState, 27'254'476'800, "optimizers.py:82/84 (step) allocate m and v in the step, alive after it: 2 x parameters"},
  {"gpt_train_step_ctx128", 0, Category::Parameter, 13'628'553'216, "324 stackless blocks from before recording; 292 match the traced gradients' sizes, 1.25 MiB of the rest are buffers"},
  {"gpt_train_step_ctx128", 0, Category::Gradient, 13'627'238'400, "BmmBackward0 / IndexBackward0 outputs made in the backward, alive after it"},
  {"gpt_train_step_ctx128", 0, Category::Temporary, 204'810'240, "optimizers.py:100 (step): made and freed inside the step"},
  {"gpt_train_step_ctx128", 0, Category::Workspace, 67'108'864, "two cuBLAS workspaces (getNewWorkspace)"},
  {"gpt_train_step_ctx128", 0, Category::Unknown, 20'480'004, "transformer.py:22 (forward) cache made in the forward and kept after the backward; the loss scalar"},
  // A torch.compile forward and backward, then AdamW replacing its state; grads accumulate in place.
  {"train_user_metadata", 0, Category::OptimizerState, 1'832'460'288, "optimizer.py:71/72 frees last step's m, v (before recording) while optimizer.py:74/75 make the new ones"},
  {"train_user_metadata", 0, Category::Parameter, 778'896'384, "225 stackless blocks alive throughout: one of each same-size pair (the other is its gradient, no gradient is allocated), AdamW's 2 states per size agree; 3 unmatched buffers"},
  {"train_user_metadata", 0, Category::Gradient, 761'840'640, "the other block of each same-size pair: the backward accumulates into it"},
  {"train_user_metadata", 0, Category::Temporary, 463'168'512, "optimizer.py:78 (step): made and freed inside the step"},
  {"train_user_metadata", 0, Category::Unknown, 12'866'816, "model.py:41 (forward) [compiled] output kept past the backward, freed after the step"},
  // A wrapped 10,000-entry ring buffer: optimizer steps of a large transformer; most memory predates it.
  {"ring_buffer_10k_annotated", 0, Category::OptimizerState, 7'898'654'724, "optimizer.py:74/75 state made in the steps, and blocks whose own stack is that step"},
  {"ring_buffer_10k_annotated", 0, Category::Parameter, 3'894'735'872, "stackless blocks alive throughout matching the gradients' sizes one for one (16 MiB of buffers beyond)"},
  {"ring_buffer_10k_annotated", 0, Category::Gradient, 3'877'647'360, "blocks whose own stack is the autograd engine, alive throughout"},
  {"ring_buffer_10k_annotated", 0, Category::Temporary, 153'600'000, "optimizer.py:78 (step): made and freed inside the step"},
  // QLoRA-style Llama: a forward, then a backward the trace stops inside; the peak opens the backward.
  {"train_no_timestamps", 0, Category::Activation, 4'524'663'588, "made in the forward; freed by the backward, or alive when the trace ends inside it"},
  {"train_no_timestamps", 0, Category::Parameter, 1'095'725'248, "stackless blocks alive throughout: 4-bit base weights with no gradient (frozen) and the LoRA weights matching the traced gradients"},
  {"train_no_timestamps", 0, Category::Temporary, 255'744'004, "made and freed inside the backward"},
  // A GNN under DataParallel, expandable segments; device 1 runs out of memory in the forward.
  {"expandable_multigpu_oom", 0, Category::Activation, 5'459'848'680, "models.py update_nodes outputs of the forward, alive when the trace ends before their backward"},
  {"expandable_multigpu_oom", 0, Category::Parameter, 2'634'772'736, "trainers.py:121 (__init__) moving the model with Module.to (module.py _apply)"},
  {"expandable_multigpu_oom", 0, Category::Temporary, 361'851'972, "made and freed inside the forward"},
  {"expandable_multigpu_oom", 1, Category::Activation, 403'506'116, "forward outputs alive at the end (an AdamW zero_grad annotation marks a training run)"},
  {"expandable_multigpu_oom", 1, Category::Temporary, 83'659'845'648, "freed in the forward's region; really saved tensors released when the OOM tore the graph down (still weak)"},
  {"expandable_multigpu_oom", 2, Category::Activation, 20'230'619'160, "update_nodes outputs alive when the trace ends before their backward"},
  {"expandable_multigpu_oom", 2, Category::Temporary, 1'334'026'640, "made and freed inside the forward"},
  // Windows, a zeroth-order federated trainer: forward passes only.
  {"windows_paths_fl", 0, Category::Parameter, 500'957'184, "client.py:176 (reset_model) moving the model with Module.to"},
  {"windows_paths_fl", 0, Category::Temporary, 1'118'703'492, "perturbations made and freed inside the (only) forward region"},
  {"windows_paths_fl", 0, Category::Activation, 164'003'840, "forward outputs alive at the end; the SGD.zero_grad annotation marks a training run"},
  // FlexGen OPT-1.3B inference server in the PyTorch 2.0 format: blocks carry their history's stack.
  {"legacy_block_history", 0, Category::Parameter, 3'863'969'792, "flex_opt.py init_weight / init_weight_list allocated them (the block's own stack)"},
  {"legacy_block_history", 0, Category::Unknown, 17'424'880, "the block freed by the one event, and blocks made by a forward: no evidence"},
  // Llama inference with layer offloading: no backward, no optimizer, no stacks on the weights.
  {"multi_gpu_segment_free", 0, Category::Unknown, 14'034'836'480, "stackless blocks alive throughout and no training in sight: weights or caches, nothing tells"},
  {"multi_gpu_segment_free", 0, Category::Temporary, 5'888'806'912, "made and freed inside the forward"},
  {"multi_gpu_segment_free", 0, Category::Parameter, 811'630'848, "select_n.py:140 (forward_load) moving layers with Module.to"},
  {"multi_gpu_segment_free", 0, Category::Workspace, 67'108'864, "cuBLAS workspaces"},
  // No trace, no frames: nothing to go on.
  {"segments_only", 1, Category::Unknown, 544'460'336, "no trace and no stacks: no lifetime, no evidence"},
  // The synthetic demo: one region, everything made and freed in it.
  {"snapviewer_demo", 0, Category::Temporary, 2'255'398'132, "made and freed inside the one forward region"},
  {"snapviewer_demo", 0, Category::Unknown, 466, "a stackless block from before recording, no training"},
};
// clang-format on

struct Key {
  std::string snapshot;
  int device;
  auto operator<=>(const Key&) const = default;
};

}  // namespace

TEST_SUITE("conformance") {
  TEST_CASE("categories at the peak of every real snapshot match the golden table") {
    std::map<Key, std::vector<const GoldenRow*>> by_device;
    for (const GoldenRow& row : kGolden) by_device[{row.snapshot, row.device}].push_back(&row);
    size_t checked = 0;
    for (const auto& [key, rows] : by_device) {
      const fs::path pickle = snapshot_dir() / (key.snapshot + ".pickle");
      if (!fs::exists(pickle)) continue;
      const Key& device_key = key;  // CAPTURE cannot name a structured binding (clang 14)
      CAPTURE(device_key.snapshot);
      CAPTURE(device_key.device);
      SourceOptions options;
      options.device = key.device;
      options.with_segments = false;
      const AnalysisSource source = load_analysis_source(pickle.string(), options);
      const Timeline& timeline = *source.blocks;
      const Classification classification = classify_source(source, nullptr);
      std::vector<uint64_t> expected(classification.names.size(), 0);
      for (const GoldenRow* row : rows) expected[category_id(row->category)] = row->bytes;
      CHECK(category_bytes_at(classification, timeline, peak_state(timeline)) == expected);
      ++checked;
    }
    CHECK(checked > 0);
  }
}
