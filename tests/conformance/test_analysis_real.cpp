// The analysis layer on the real snapshots of $SNAPSCOPE_SNAPSHOT_DIR: every view accounts for
// exactly the live bytes memory_viz shows (its peak from NAME.memviz.json), and annotated
// phases land on the events worked out independently (Python over the raw pickles).
#include <doctest/doctest.h>

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/analysis/annotation_pairing.h"
#include "core/analysis/call_tree.h"
#include "core/analysis/db_annotations.h"
#include "core/analysis/db_stack_source.h"
#include "core/analysis/live_elements.h"
#include "core/analysis/moment_table.h"
#include "core/analysis/phase_table.h"
#include "core/analysis/snapshot_stack_source.h"
#include "core/analysis/state_mapping.h"
#include "core/convert/convert.h"
#include "core/snapshot/snapshot_reader.h"
#include "core/store/allocations_json/allocations_json.h"
#include "real_snapshots.h"

using namespace snapscope;
namespace fs = std::filesystem;
using namespace snapscope::conformance;

namespace {

Timeline block_timeline(const Snapshot& snapshot, int device) {
  return Timeline(derive_replay_input(snapshot, device, TimelineKind::Blocks));
}

// Bytes of live elements with no allocation stack, summed without the analysis layer.
uint64_t unattributed_bytes(const Snapshot& snapshot, const Timeline& timeline, size_t state) {
  uint64_t bytes = 0;
  for (const LiveAllocation& live : timeline.live_at(state)) {
    const ReplayElement& element = timeline.element(live.elem);
    const bool no_frames = snapshot.stacks.frames(element.stack).empty();
    if (no_frames || element.origin == Origin::FreeWithoutAlloc) bytes += live.size;
  }
  return bytes;
}

// The bottom-up filtered tree's first level is each stack's location, i.e. the moment table by
// the location rule.
std::map<std::string, uint64_t> bottom_up_by_label(const CallTree& tree, const StackSource& source) {
  std::map<std::string, uint64_t> bytes;
  for (uint32_t child : tree.node(CallTree::kRoot).children)
    bytes[tree.label(child, source)] += tree.node(child).bytes;
  return bytes;
}

void check_user_locations(const Timeline& timeline, size_t state, LocationIndex& locations) {
  const std::vector<LiveElement> live = live_elements(timeline, state);
  uint64_t sum = 0;
  for (const MomentRow& row : build_moment_table(live, locations, state).rows) sum += row.bytes;
  CHECK(sum == timeline.total_at_state(state));
}

// By label; a compiled row (" [compiled]", its own row beside the same line run eagerly) counts
// under its line, as the tree's nodes are frames.
std::map<std::string, uint64_t> rows_by_label(const MomentTable& table) {
  std::map<std::string, uint64_t> rows;
  for (const MomentRow& row : table.rows) {
    std::string label = row.label;
    if (row.compiled && label.ends_with(kCompiledSuffix)) label.resize(label.size() - kCompiledSuffix.size());
    rows[label] += row.bytes;
  }
  return rows;
}

void check_state(const Snapshot& snapshot, const Timeline& timeline, size_t state, LocationIndex& locations,
                 LocationIndex& user_locations) {
  const SnapshotStackSource source(snapshot);
  const uint64_t live_bytes = timeline.total_at_state(state);
  const std::vector<LiveElement> live = live_elements(timeline, state);
  const MomentTable table = build_moment_table(live, locations, state);
  uint64_t sum = 0;
  std::map<std::string, uint64_t> rows;
  for (const MomentRow& row : table.rows) {
    sum += row.bytes;
    rows[row.label] = row.bytes;
    CHECK(row.count > 0);
  }
  CHECK(sum == live_bytes);
  const auto untraced = rows.find(std::string(kUntracedLabel));
  CHECK((untraced == rows.end() ? 0 : untraced->second) == unattributed_bytes(snapshot, timeline, state));
  CHECK(std::is_sorted(table.rows.begin(), table.rows.end(),
                       [](const MomentRow& a, const MomentRow& b) { return a.bytes > b.bytes; }));

  for (TreeDirection direction : {TreeDirection::TopDown, TreeDirection::BottomUp}) {
    for (bool filter : {true, false}) {
      const CallTree tree = build_call_tree(live, source, {direction, filter});
      CHECK(tree.total_bytes() == live_bytes);
      CHECK(tree.node(CallTree::kRoot).count == live.size());
      uint64_t children = 0;
      for (uint32_t child : tree.node(CallTree::kRoot).children) children += tree.node(child).bytes;
      CHECK(children == live_bytes);
      if (direction == TreeDirection::BottomUp && filter) {
        CHECK(bottom_up_by_label(tree, source) ==
              rows_by_label(build_moment_table(live, user_locations, state)));
      }
    }
  }
}

}  // namespace

TEST_SUITE("conformance") {
  TEST_CASE("analysis: moment tables and call trees account for exactly the live bytes") {
    for (const fs::path& pickle : snapshot_pickles()) {
      const nlohmann::json reference = load_reference(pickle);
      const Snapshot snapshot = read_snapshot(pickle.string());
      for (const nlohmann::json& device : reference.at("devices")) {
        CAPTURE(pickle.filename().string());
        const Timeline timeline = block_timeline(snapshot, device.at("device").get<int>());
        const SnapshotStackSource source(snapshot);
        LocationIndex locations(source, LocationRule::FirstShownFrame);
        LocationIndex user_locations(source, LocationRule::FirstUserFrame);
        const size_t peak = peak_state(timeline);
        CHECK(timeline.total_at_state(peak) == device.at("timeline").at("peak").get<uint64_t>());
        const size_t last = timeline.action_count();
        for (size_t state : {size_t{0}, peak, last / 3, 2 * last / 3, last}) {
          CAPTURE(state);
          check_state(snapshot, timeline, state, locations, user_locations);
          check_user_locations(timeline, state, user_locations);
        }
      }
    }
  }

  TEST_CASE("analysis: real snapshots without annotations or timestamps") {
    const Snapshot snapshot = read_snapshot((snapshot_dir() / "train_no_timestamps.pickle").string());
    const Timeline timeline = block_timeline(snapshot, 0);
    const AnnotationPairing pairing = pair_annotations(snapshot_annotations(snapshot), 0);
    CHECK(pairing.intervals.empty());
    CHECK_FALSE(build_phase_table(timeline, pairing).has_times);
  }

  TEST_CASE("analysis: phase tables of real snapshots") {
    struct Expected {
      const char* snapshot;
      const char* name;
      uint32_t depth;
      int64_t start_raw_event, start_event, end_raw_event, end_event;  // -1: past the trace
    };
    // First raw event / first alloc or free_completed event with time_us >= the annotation's,
    // computed in Python straight from the pickles.
    const std::vector<Expected> expected = {
        {"gpt_train_step_ctx128", "Optimizer.zero_grad#AdamW.zero_grad", 0, 0, 1, 0, 1},
        {"gpt_train_step_ctx128", "Optimizer.step#AdamW.step", 0, 16747, 16748, -1, -1},
        {"train_user_metadata", "Optimizer.step#AdamW.step", 0, 1818, 1818, 6480, 6481},
        {"snapviewer_demo", "Annotation3", 0, 2, 2, -1, -1},
        {"snapviewer_demo", "Annotation3", 1, 2, 2, 1038, 1038},
        {"snapviewer_demo", "Annotation1", 2, 20, 20, 1029, 1029},
    };
    std::map<std::string, std::vector<Expected>> by_snapshot;
    for (const Expected& e : expected) by_snapshot[e.snapshot].push_back(e);
    for (const auto& [snapshot_name, rows] : by_snapshot) {
      const std::string& name = snapshot_name;  // CAPTURE cannot name a structured binding (clang 14)
      CAPTURE(name);
      const Snapshot snapshot = read_snapshot((snapshot_dir() / (name + ".pickle")).string());
      const Timeline timeline = block_timeline(snapshot, 0);
      const AnnotationPairing pairing = pair_annotations(snapshot_annotations(snapshot), 0);
      CHECK(pairing.unmatched.empty());
      const PhaseTable table = build_phase_table(timeline, pairing);
      REQUIRE(table.has_times);
      REQUIRE(table.rows.size() == rows.size());
      for (size_t i = 0; i < rows.size(); ++i) {
        const PhaseRow& row = table.rows[i];
        CAPTURE(row.name);
        CHECK(row.name == rows[i].name);
        CHECK(row.depth == rows[i].depth);
        CHECK(row.start_event == rows[i].start_event);
        CHECK(row.end_event == rows[i].end_event);
        // The state just before the first raw event at or after the time.
        const auto state_before_raw = [&](int64_t raw) {
          return raw < 0 ? timeline.action_count() : state_after_event(timeline, raw - 1);
        };
        CHECK(row.start_state == state_before_raw(rows[i].start_raw_event));
        CHECK(row.end_state == state_before_raw(rows[i].end_raw_event));
        CHECK(row.start_bytes == timeline.total_at_state(row.start_state));
        CHECK(row.end_bytes == timeline.total_at_state(row.end_state));
        uint64_t peak = 0;
        for (size_t s = row.start_state; s <= row.end_state; ++s)
          peak = std::max(peak, timeline.total_at_state(s));
        CHECK(row.peak_bytes == peak);
        CHECK(timeline.total_at_state(row.peak_state) == peak);
        CHECK(row.delta_bytes() == int64_t(row.end_bytes) - int64_t(row.start_bytes));
      }
    }
  }

  TEST_CASE("analysis: a converted directory gives the same tables as its pickle") {
    const fs::path pickle = snapshot_dir() / "train_user_metadata.pickle";
    const fs::path out =
        fs::temp_directory_path() / ("snapscope_analysis_convert_" + std::to_string(::getpid()));
    fs::remove_all(out);
    ConvertOptions options;
    options.input = pickle.string();
    options.output_dir = out.string();
    convert_snapshot(options);

    const Snapshot snapshot = read_snapshot(pickle.string());
    const Timeline from_pickle = block_timeline(snapshot, 0);
    AllocationsFile layouts = read_allocations_json((out / kAllocationsFileName).string());
    REQUIRE(layouts.devices.size() == 1);
    const Timeline from_dir(std::move(layouts.devices[0].blocks));
    const SnapshotStackSource memory(snapshot);
    const DbStackSource db((out / kElementsDbName).string());
    for (LocationRule rule : {LocationRule::FirstShownFrame, LocationRule::FirstUserFrame}) {
      LocationIndex memory_locations(memory, rule), db_locations(db, rule);
      for (size_t state : {peak_state(from_pickle), from_pickle.action_count() / 2}) {
        CHECK(
            moment_table_csv(build_moment_table(live_elements(from_dir, state), db_locations, state)) ==
            moment_table_csv(build_moment_table(live_elements(from_pickle, state), memory_locations, state)));
      }
    }
    const std::vector<AnnotationRecord> db_annotations =
        read_db_annotations((out / kElementsDbName).string());
    CHECK(phase_table_text(build_phase_table(from_dir, pair_annotations(db_annotations, 0))) ==
          phase_table_text(
              build_phase_table(from_pickle, pair_annotations(snapshot_annotations(snapshot), 0))));
    fs::remove_all(out);
  }
}
