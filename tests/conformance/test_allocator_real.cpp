// Allocator state history on every real snapshot in $SNAPSCOPE_SNAPSHOT_DIR: at the last event it
// is exactly the segment snapshot, its allocated / reserved totals equal the block / segment
// timelines' at events all along the trace, and the elements.db-backed history (what the viewer
// uses) gives the same states as the one built from the pickle.
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
#include "core/analysis/state_mapping.h"
#include "core/convert/convert.h"
#include "core/snapshot/snapshot_reader.h"
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

std::vector<int64_t> sample_events(size_t count) {
  std::vector<int64_t> events = {-1};
  for (size_t k = 1; k <= 16; ++k) events.push_back(static_cast<int64_t>(count * k / 16) - 1);
  return events;
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
  for (const auto& [addr, block] : end.blocks()) blocks[addr] = {block.size, block.pending_free};
  CHECK(segment_sizes == expected.segment_sizes);
  CHECK(blocks == expected.blocks);

  const Timeline block_timeline(derive_replay_input(snapshot, device, TimelineKind::Blocks));
  const Timeline segment_timeline(derive_replay_input(snapshot, device, TimelineKind::Segments));
  AllocatorHistory from_db(final_state_from_db(db_path, device),
                           std::make_unique<DbEventSource>(db_path, device));
  REQUIRE(from_db.event_count() == history.event_count());
  for (const int64_t event : sample_events(history.event_count())) {
    INFO("event " << event);
    const AllocatorState state = history.after_event(event);
    CHECK(state.reserved_bytes() ==
          segment_timeline.total_at_state(state_after_event(segment_timeline, event)));
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
