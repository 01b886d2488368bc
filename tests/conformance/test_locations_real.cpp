// The location rule on the real snapshots recorded with C++ frames: no moment-table row, tree
// root or colour-legend site is an allocator, dispatcher or interpreter frame; backward-pass
// allocations name their autograd node; library frames (torch, einops) are never a location.
#include <doctest/doctest.h>

#include <map>
#include <regex>
#include <string>
#include <vector>

#include "core/analysis/call_tree.h"
#include "core/analysis/live_elements.h"
#include "core/analysis/moment_table.h"
#include "core/analysis/snapshot_stack_source.h"
#include "core/analysis/source_location.h"
#include "core/analysis/state_mapping.h"
#include "core/snapshot/snapshot_reader.h"
#include "core/timeline/replay_input.h"
#include "core/view/stack_format.h"
#include "real_snapshots.h"

using namespace snapscope;
using namespace snapscope::conformance;

namespace {

const std::vector<std::string> kWithNativeFrames = {"gpt_train_step_ctx128", "multi_gpu_segment_free",
                                                    "train_no_timestamps", "train_user_metadata"};

bool is_location_kind(FrameKind kind) {
  return kind == FrameKind::User || kind == FrameKind::AutogradNode || kind == FrameKind::Operator;
}

// Labels no reader wants as a location, whatever the classification says.
bool looks_internal(const std::string& label) {
  static const std::regex internal(
      R"(CachingAllocator|\?\?:0|_PyEval|method_vectorcall|__libc|__xmknodat|wrap_kernel_functor|_empty_generic|)"
      R"(empty_cuda|/torch/|\\torch\\|einops|Engine::|^const$|validate_outputs)");
  return std::regex_search(label, internal);
}

struct Loaded {
  Snapshot snapshot;
  Timeline timeline;
};

Loaded load(const std::string& name) {
  Snapshot snapshot = read_snapshot((snapshot_dir() / (name + ".pickle")).string());
  Timeline timeline(derive_replay_input(snapshot, 0, TimelineKind::Blocks));
  return {std::move(snapshot), std::move(timeline)};
}

std::vector<size_t> sample_states(const Timeline& timeline) {
  const size_t last = timeline.action_count();
  return {peak_state(timeline), last / 4, last / 2, 3 * last / 4, last};
}

}  // namespace

TEST_SUITE("conformance") {
  TEST_CASE("locations: every traced stack of a C++-frame snapshot names user code, a node or an op") {
    for (const std::string& name : kWithNativeFrames) {
      CAPTURE(name);
      const Loaded loaded = load(name);
      const SnapshotStackSource source(loaded.snapshot);
      const FrameNoiseCache kinds(source);
      size_t stacks = 0, backward = 0;
      for (uint32_t elem = 0; elem < loaded.timeline.element_count(); ++elem) {
        const std::span<const FrameId> frames = source.stack_frames(loaded.timeline.element(elem).stack);
        if (frames.empty()) continue;
        ++stacks;
        const size_t at = kinds.location_index(frames);
        const std::string label = format_location(source.frame(frames[at]));
        CAPTURE(label);
        CHECK(is_location_kind(kinds.kind(frames[at])));
        CHECK_FALSE(looks_internal(label));
        // A backward allocation (an autograd node before any user frame) is named by that node.
        for (FrameId frame : frames) {
          const FrameKind kind = kinds.kind(frame);
          if (kind == FrameKind::User) break;
          if (kind == FrameKind::AutogradNode) {
            ++backward;
            CHECK(std::regex_match(
                label, std::regex(R"([A-Za-z0-9_]+Backwards?[0-9]*|AccumulateGrad|CopySlices|PyNode)")));
            break;
          }
        }
      }
      CHECK(stacks > 0);
      if (name != "multi_gpu_segment_free") CHECK(backward > 0);
    }
  }

  TEST_CASE("locations: moment rows and tree roots at many moments are user code or autograd nodes") {
    for (const std::string& name : kWithNativeFrames) {
      CAPTURE(name);
      const Loaded loaded = load(name);
      const SnapshotStackSource source(loaded.snapshot);
      const FrameNoiseCache kinds(source);
      LocationIndex locations(source, LocationRule::FirstUserFrame);
      for (size_t state : sample_states(loaded.timeline)) {
        CAPTURE(state);
        const std::vector<LiveElement> live = live_elements(loaded.timeline, state);
        for (const MomentRow& row : build_moment_table(live, locations, state).rows) {
          CAPTURE(row.label);
          CHECK_FALSE(looks_internal(row.label));
        }
        const CallTree top_down = build_call_tree(live, source, {TreeDirection::TopDown, true});
        for (uint32_t child : top_down.node(CallTree::kRoot).children) {
          const CallTreeNode& node = top_down.node(child);
          if (node.kind != CallTreeNodeKind::Frame) continue;
          CAPTURE(top_down.label(child, source));
          // An operator only for what the autograd engine allocates itself (gradient reduction).
          CHECK(is_location_kind(kinds.kind(node.frame)));
        }
        const CallTree bottom_up = build_call_tree(live, source, {TreeDirection::BottomUp, true});
        for (uint32_t child : bottom_up.node(CallTree::kRoot).children) {
          if (bottom_up.node(child).kind != CallTreeNodeKind::Frame) continue;
          CAPTURE(bottom_up.label(child, source));
          CHECK(is_location_kind(kinds.kind(bottom_up.node(child).frame)));
          CHECK_FALSE(looks_internal(bottom_up.label(child, source)));
        }
      }
    }
  }

  TEST_CASE("locations: golden moment table at the peak of gpt_train_step_ctx128") {
    // The rows a user reads at the peak (optimizer step): user lines and the autograd nodes of the
    // gradients, never the caching allocator (before the rule, one allocator row held it all).
    struct Row {
      const char* label;
      uint64_t bytes, count;
    };
    const std::vector<Row> golden = {
        {"untraced / pre-existing", 13628553216, 324},
        {"/cs336_basics/optimizers.py:82 (step)", 13627238400, 291},
        {"/cs336_basics/optimizers.py:84 (step)", 13627238400, 291},
        {"BmmBackward0", 13557727232, 226},
        {"/cs336_basics/optimizers.py:100 (step)", 204810240, 3},
        {"IndexBackward0", 102400000, 1},
        {"/cs336_basics/transformer.py:22 (forward)", 54034432, 2},
        {"aten::sum_dim_IntList", 665600, 65},
        {"/cs336_basics/training.py:33 (cross_entropy_loss)", 4, 1},
    };
    const Loaded loaded = load("gpt_train_step_ctx128");
    const SnapshotStackSource source(loaded.snapshot);
    LocationIndex locations(source, LocationRule::FirstUserFrame);
    const size_t peak = peak_state(loaded.timeline);
    const MomentTable table = build_moment_table(live_elements(loaded.timeline, peak), locations, peak);
    REQUIRE(table.rows.size() == golden.size());
    for (size_t i = 0; i < golden.size(); ++i) {
      CAPTURE(i);
      CHECK(table.rows[i].label.ends_with(golden[i].label));
      CHECK(table.rows[i].bytes == golden[i].bytes);
      CHECK(table.rows[i].count == golden[i].count);
    }
  }
}
