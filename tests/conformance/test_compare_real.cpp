// core/compare on the real snapshots of $SNAPSCOPE_SNAPSHOT_DIR: every snapshot compared with
// itself (two independent loads) is zero everywhere, by location and by call path, at the peak
// of every device.
#include <doctest/doctest.h>

#include <string>

#include "core/analysis/live_elements.h"
#include "core/analysis/moment_table.h"
#include "core/analysis/state_mapping.h"
#include "core/compare/call_tree_diff.h"
#include "core/compare/moment_diff.h"
#include "core/export/export_source.h"
#include "real_snapshots.h"

using namespace snapscope;
using namespace snapscope::conformance;

namespace {

MomentTable peak_moment(const AnalysisSource& source) {
  const Timeline& timeline = *source.blocks;
  const size_t state = peak_state(timeline);
  LocationIndex locations(*source.stacks, LocationRule::FirstUserFrame);
  return build_moment_table(live_elements(timeline, state), locations, state);
}

CallTree peak_tree(const AnalysisSource& source) {
  return build_call_tree(live_elements(*source.blocks, peak_state(*source.blocks)), *source.stacks);
}

}  // namespace

TEST_SUITE("conformance") {
  TEST_CASE("compare: a real snapshot diffed with itself is zero at every device's peak") {
    for (const auto& pickle : snapshot_pickles()) {
      const AnalysisSource first = load_analysis_source(pickle.string(), {});
      for (int device : first.devices) {
        CAPTURE(pickle.filename().string());
        CAPTURE(device);
        SourceOptions options;
        options.device = device;
        options.with_segments = false;
        const AnalysisSource a = load_analysis_source(pickle.string(), options);
        const AnalysisSource b = load_analysis_source(pickle.string(), options);
        const MomentTable moment = peak_moment(a);
        const MomentDiff diff = diff_moments(moment, peak_moment(b));
        CHECK(diff.live_a == a.blocks->peak_bytes());
        CHECK(diff.delta() == 0);
        CHECK(diff.rows.size() == moment.rows.size());
        for (const DiffRow& row : diff.rows) {
          CHECK(row.delta() == 0);
          CHECK(row.status == DiffStatus::Both);
        }
        // By call path: the two loads' trees merge node for node, every delta zero.
        const CallTree tree_a = peak_tree(a);
        const CallTreeDiff tree_diff = diff_call_trees(tree_a, *a.stacks, peak_tree(b), *b.stacks);
        CHECK(tree_diff.node(CallTreeDiff::kRoot).bytes_a == a.blocks->peak_bytes());
        size_t nonzero = 0;
        for (uint32_t id = 0; id < tree_diff.size(); ++id)
          nonzero += tree_diff.node(id).delta() != 0 || tree_diff.node(id).status != DiffStatus::Both;
        CHECK(nonzero == 0);
      }
    }
  }
}
