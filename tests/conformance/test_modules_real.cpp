// Memory by module at the peak of gpt_train_step_ctx128, against a tree read from its stacks by
// hand (elements.db SQL): during AdamW's step only two forward allocations are still alive, one in
// the first of the 32 transformer blocks (transformer.py:292 loops over them), one in the LM head.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "conformance/real_snapshots.h"
#include "core/analysis/live_elements.h"
#include "core/analysis/module_tree.h"
#include "core/analysis/state_mapping.h"
#include "core/export/export_common.h"
#include "core/export/export_source.h"

using namespace snapscope;
using namespace snapscope::conformance;
namespace fs = std::filesystem;

namespace {

struct GoldenModuleRow {
  std::string path;
  uint64_t bytes, self_bytes, count;
};

const std::string kGpt = "forward (transformer.py) <- benchmark.py:229";
const std::string kBlock = kGpt + " > forward (transformer.py) <- transformer.py:292";

}  // namespace

TEST_SUITE("conformance") {
  TEST_CASE("modules at the peak of gpt_train_step_ctx128 match the tree read from its stacks") {
    const fs::path pickle = snapshot_dir() / "gpt_train_step_ctx128.pickle";
    if (!fs::exists(pickle)) return;
    SourceOptions options;
    options.with_segments = false;
    const AnalysisSource source = load_analysis_source(pickle.string(), options);
    const ModuleInstances modules = export_module_instances(export_input(source));
    const size_t peak = peak_state(*source.blocks);
    const ModuleTree tree = build_module_tree(live_elements(*source.blocks, peak), modules, peak);
    const std::vector<GoldenModuleRow> golden = {
        // optimizers.py:82/84 (m, v: 291 each), :100 (3 temporaries), training.py:33 (the loss)
        {"outside any module", 27'459'287'044, 27'459'287'044, 586},
        // BmmBackward0 (226), IndexBackward0, reduce_grad's sum (65): no forward_frames recorded
        {"backward (no forward stack)", 13'660'792'832, 13'660'792'832, 292},
        {"untraced / pre-existing", 13'628'553'216, 13'628'553'216, 324},
        {kGpt, 54'034'432, 0, 2},
        // event #17, the first block's attention projection (transformer.py:188 -> Linear :22)
        {kBlock + " [0]", 33'554'432, 0, 1},
        {kBlock + " [0] > forward (transformer.py) <- transformer.py:244", 33'554'432, 0, 1},
        {kBlock + " [0] > forward (transformer.py) <- transformer.py:244 > forward (transformer.py) <- "
                  "transformer.py:188",
         33'554'432, 33'554'432, 1},
        // the LM head's logits (event #4656)
        {kGpt + " > forward (transformer.py) <- transformer.py:298", 20'480'000, 20'480'000, 1},
    };
    REQUIRE(tree.rows.size() == golden.size());
    uint64_t top = 0;
    for (size_t i = 0; i < golden.size(); ++i) {
      CAPTURE(golden[i].path);
      CHECK(tree.rows[i].path == golden[i].path);
      CHECK(tree.rows[i].bytes == golden[i].bytes);
      CHECK(tree.rows[i].self_bytes == golden[i].self_bytes);
      CHECK(tree.rows[i].count == golden[i].count);
      if (tree.rows[i].depth == 0) top += tree.rows[i].bytes;
    }
    CHECK(top == source.blocks->peak_bytes());
    // The model (2.7B config: 32 layers) ran its blocks once each: [0] .. [31].
    size_t blocks = 0;
    for (const ModuleNode& node : modules.nodes()) {
      if (node.label.starts_with("forward (transformer.py) <- transformer.py:292 [")) ++blocks;
    }
    CHECK(blocks == 32);
  }
}
