// Allocator state history on every real snapshot in $SNAPSCOPE_SNAPSHOT_DIR: at the last event it
// is exactly the segment snapshot, its allocated total equals the block timeline's and its
// reserved total the ReservedSeries' at events all along the trace (and the segment timeline's
// where memory_viz's picture is the truth: no segment_map / unmap, a trace with actions), and the
// elements.db-backed history (what the viewer uses) gives the same states as the one built from
// the pickle.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/allocator/allocator_history.h"
#include "core/allocator/db_event_source.h"
#include "core/allocator/usage_curve.h"
#include "core/analysis/state_mapping.h"
#include "core/convert/convert.h"
#include "core/cursor/cursor_readout.h"
#include "core/snapshot/snapshot_reader.h"
#include "core/store/elements_db/elements_db_reader.h"
#include "core/timeline/reserved_series.h"
#include "core/timeline/timeline.h"
#include "real_snapshots.h"
#include "unit/support/test_store_fixture.h"

using namespace snapscope;
namespace fs = std::filesystem;
using namespace snapscope::conformance;

namespace {

// The snapshot's own segments and active blocks of one device, read without the allocator code.
struct Expected {
  std::map<uint64_t, uint64_t> segment_sizes;
  std::map<uint64_t, std::pair<uint64_t, bool>> blocks;  // addr -> (size, pending)
};

Expected expected_end(const Snapshot& snapshot, int device) {
  Expected out;
  for (const Segment& segment : snapshot.segments) {
    if (segment.device != device) continue;
    out.segment_sizes[segment.address] = segment.total_size;
    for (uint32_t b = segment.first_block; b < segment.first_block + segment.block_count; ++b) {
      const Block& block = snapshot.blocks[b];
      if (block.state == BlockState::ActiveAllocated || block.state == BlockState::ActivePending)
        out.blocks[block.address] = {block.size, block.state == BlockState::ActivePending};
    }
  }
  return out;
}

uint64_t expected_reserved(const Expected& expected) {
  uint64_t total = 0;
  for (const auto& [addr, size] : expected.segment_sizes) total += size;
  return total;
}

std::vector<int64_t> sample_events(size_t count) {
  std::vector<int64_t> events = {-1};
  for (size_t k = 1; k <= 16; ++k) events.push_back(static_cast<int64_t>(count * k / 16) - 1);
  return events;
}

// memory_viz's segment timeline ignores segment_map / segment_unmap (expandable segments), and
// without any action it leaves one segment out of its first state: there it is not reserved.
bool segment_timeline_is_reserved(const Snapshot& snapshot, int device, const Timeline& segments) {
  if (segments.action_count() == 0 || segments.input().synthetic_action) return false;
  for (const TraceEvent& event : snapshot.device_traces.at(size_t(device)).events) {
    if (event.action() == Action::SegmentMap || event.action() == Action::SegmentUnmap) return false;
  }
  return true;
}

// Reserved bytes after every event, summed from the segment events forwards from the start
// (the series walks back from the end): the two meet only if both are right.
std::vector<uint64_t> reserved_forwards(const Snapshot& snapshot, int device, uint64_t initial) {
  std::vector<uint64_t> out;
  int64_t reserved = static_cast<int64_t>(initial);
  for (const TraceEvent& event : snapshot.device_traces.at(size_t(device)).events) {
    reserved += reserved_delta(event.action(), event.size);
    out.push_back(static_cast<uint64_t>(reserved));
  }
  return out;
}

void check_device(const Snapshot& snapshot, int device, const std::string& db_path) {
  AllocatorHistory history(final_state_from_snapshot(snapshot, device),
                           std::make_unique<SnapshotEventSource>(snapshot, device),
                           AllocatorHistory::kDefaultBudget, 256);
  const Expected expected = expected_end(snapshot, device);
  const AllocatorState end = history.at_position(history.event_count());
  std::map<uint64_t, uint64_t> segment_sizes;
  for (const auto& [addr, segment] : end.segments()) segment_sizes[addr] = segment.size;
  std::map<uint64_t, std::pair<uint64_t, bool>> blocks;
  for (const AllocatorBlock& block : end.blocks().sorted())
    blocks[block.addr] = {block.size, block.pending_free};
  CHECK(segment_sizes == expected.segment_sizes);
  CHECK(blocks == expected.blocks);

  const Timeline block_timeline(derive_replay_input(snapshot, device, TimelineKind::Blocks));
  const Timeline segment_timeline(derive_replay_input(snapshot, device, TimelineKind::Segments));
  AllocatorHistory from_db(final_state_from_db(db_path, device),
                           std::make_unique<DbEventSource>(db_path, device));
  REQUIRE(from_db.event_count() == history.event_count());
  const ReservedSeries reserved = reserved_series_of(snapshot, device);
  CHECK_FALSE(reserved.inconsistent());
  const ReservedSeries reserved_db = read_reserved_series(ElementsDbReader(db_path), device);
  CHECK(reserved_db.initial() == reserved.initial());
  REQUIRE(reserved_db.steps().size() == reserved.steps().size());
  for (size_t i = 0; i < reserved.steps().size(); ++i) {
    CHECK(reserved_db.steps()[i].event == reserved.steps()[i].event);
    CHECK(reserved_db.steps()[i].reserved == reserved.steps()[i].reserved);
  }
  const std::vector<uint64_t> forwards = reserved_forwards(snapshot, device, reserved.initial());
  CHECK((forwards.empty() ? reserved.initial() : forwards.back()) == expected_reserved(expected));
  const bool memviz_is_reserved = segment_timeline_is_reserved(snapshot, device, segment_timeline);
  // Every change of reserved bytes, and the moments just before them.
  size_t disagreements = 0;
  for (const ReservedStep& step : reserved.steps()) {
    for (const int64_t event : {step.event - 1, step.event}) {
      if (history.after_event(event).reserved_bytes() != reserved.after_event(event)) ++disagreements;
    }
  }
  CHECK(disagreements == 0);
  // The strip over the whole trace in one column reaches the summary's peak (ReservedSeries::peak),
  // unless segments were mapped after the last alloc / free, where no column reaches.
  const std::vector<UsageColumn> whole =
      UsageCurve(block_timeline, reserved).columns(block_timeline, 0, double(block_timeline.timesteps()), 1);
  const bool change_after_last_action =
      !reserved.steps().empty() && block_timeline.action_count() > 0 &&
      reserved.steps().back().event > block_timeline.action_event(block_timeline.action_count() - 1);
  if (!whole.empty() && whole[0].valid && !change_after_last_action)
    CHECK(whole[0].reserved_max == reserved.peak());
  for (const int64_t event : sample_events(history.event_count())) {
    INFO("event " << event);
    const AllocatorState state = history.after_event(event);
    CHECK(state.reserved_bytes() == reserved.after_event(event));
    if (event >= 0) CHECK(reserved.after_event(event) == forwards[size_t(event)]);
    if (memviz_is_reserved)
      CHECK(state.reserved_bytes() ==
            segment_timeline.total_at_state(state_after_event(segment_timeline, event)));
    // The status bar and print-cursor (read_cursor) say what the allocator pane says at their
    // moment, and so does the usage strip (UsageCurve).
    const CursorReadout readout =
        read_cursor(block_timeline, block_timeline, reserved, state_after_event(block_timeline, event));
    CHECK(readout.reserved_bytes == history.after_event(readout.event).reserved_bytes());
    CHECK(UsageCurve(block_timeline, reserved).reserved_after(event) == state.reserved_bytes());
    CHECK(state.allocated_bytes() == block_timeline.total_at_state(state_after_event(block_timeline, event)));
    CHECK(from_db.after_event(event) == state);
  }
}

}  // namespace

TEST_SUITE("conformance") {
  TEST_CASE("allocator state history of real snapshots") {
    for (const fs::path& pickle : snapshot_pickles()) {
      INFO(pickle.filename().string());
      const Snapshot snapshot = read_snapshot(pickle.string());
      test::TempDir dir;
      ConvertOptions options;
      options.input = pickle.string();
      options.output_dir = (dir.path() / "out").string();
      convert_snapshot(options);
      const std::string db = (dir.path() / "out" / kElementsDbName).string();
      for (const int device : snapshot.devices()) {
        INFO("device " << device);
        check_device(snapshot, device, db);
      }
    }
  }
}
