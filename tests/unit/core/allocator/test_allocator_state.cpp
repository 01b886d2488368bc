// Allocator state history (memory_viz's "Allocator State History") on hand-built snapshots:
// each undo rule, pending frees, expandable segments' map/unmap, checkpoints, and totals against
// the block and segment timelines.
#include <doctest/doctest.h>

#include <atomic>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <vector>

#include "core/allocator/allocator_history.h"
#include "core/allocator/db_event_source.h"
#include "core/allocator/segment_layout.h"
#include "core/analysis/state_mapping.h"
#include "core/convert/convert.h"
#include "core/gen/gen_options.h"
#include "core/snapshot/snapshot_reader.h"
#include "core/timeline/timeline.h"
#include "unit/support/generated_snapshot.h"
#include "unit/support/test_store_fixture.h"

using namespace snapscope;

namespace {

TraceEvent event(Action action, uint64_t addr, uint64_t size) {
  TraceEvent e;
  e.set_action(action);
  e.addr = addr;
  e.size = size;
  return e;
}

void add_segment(Snapshot& snapshot, uint64_t addr, uint64_t size, std::vector<Block> blocks) {
  Segment segment;
  segment.address = addr;
  segment.total_size = size;
  segment.first_block = static_cast<uint32_t>(snapshot.blocks.size());
  segment.block_count = static_cast<uint32_t>(blocks.size());
  for (Block& block : blocks) {
    block.segment = static_cast<uint32_t>(snapshot.segments.size());
    snapshot.blocks.push_back(block);
  }
  snapshot.segments.push_back(segment);
}

Block block(uint64_t addr, uint64_t size, uint64_t requested, BlockState state) {
  Block b;
  b.address = addr;
  b.size = size;
  b.requested_size = requested;
  b.state = state;
  return b;
}

// Segment 0x1000 (4096 B) allocated in the trace; blocks A 0x1000 (512, requested 500 at the
// end), B 0x1200 (256) freed with a merged free, C 0x1400 (1024) freed on another stream
// (free_requested, then an unrelated alloc, then free_completed), D 0x1800 pending at the end.
// A second segment 0x10000 (8192) pre-exists and is freed by segment_free at the end.
Snapshot pending_fixture() {
  Snapshot s;
  s.device_traces.resize(1);
  auto& e = s.device_traces[0].events;
  e.push_back(event(Action::SegmentAlloc, 0x1000, 4096));   // 0
  e.push_back(event(Action::Alloc, 0x1000, 500));           // 1  A
  e.push_back(event(Action::Alloc, 0x1200, 256));           // 2  B
  e.push_back(event(Action::Alloc, 0x1400, 1024));          // 3  C
  e.push_back(event(Action::FreeRequested, 0x1200, 256));   // 4  B (merged free)
  e.push_back(event(Action::FreeCompleted, 0x1200, 256));   // 5
  e.push_back(event(Action::FreeRequested, 0x1400, 1024));  // 6  C pending from here
  e.push_back(event(Action::Alloc, 0x1800, 128));           // 7  D
  e.push_back(event(Action::FreeCompleted, 0x1400, 1024));  // 8  C gone
  e.push_back(event(Action::FreeRequested, 0x1800, 128));   // 9  D pending at the end
  e.push_back(event(Action::Oom, 4096, 1 << 20));           // 10 oom: addr = device free
  e.push_back(event(Action::SegmentFree, 0x10000, 8192));   // 11
  add_segment(
      s, 0x1000, 4096,
      {block(0x1000, 512, 500, BlockState::ActiveAllocated), block(0x1200, 1536, 1536, BlockState::Inactive),
       block(0x1800, 128, 128, BlockState::ActivePending), block(0x1880, 1920, 1920, BlockState::Inactive)});
  return s;
}

AllocatorHistory history_of(const Snapshot& s, size_t interval = AllocatorHistory::kDefaultInterval,
                            size_t budget = AllocatorHistory::kDefaultBudget) {
  return AllocatorHistory(final_state_from_snapshot(s, 0), std::make_unique<SnapshotEventSource>(s, 0),
                          budget, interval);
}

bool has_block(const AllocatorState& state, uint64_t addr) { return state.blocks().count(addr) != 0; }
bool pending(const AllocatorState& state, uint64_t addr) { return state.blocks().at(addr).pending_free; }

}  // namespace

TEST_CASE("allocator state: undo of alloc, merged free, pending free and segment events") {
  const Snapshot s = pending_fixture();
  AllocatorHistory history = history_of(s);
  REQUIRE(history.event_count() == 12);

  const AllocatorState end = history.after_event(11);
  CHECK(end.segments().size() == 1);
  CHECK(end.blocks().size() == 2);
  CHECK(end.blocks().at(0x1000).size == 512);
  CHECK(end.blocks().at(0x1000).requested_size == 500);
  CHECK(pending(end, 0x1800));
  CHECK(end.allocated_bytes() == 628);
  CHECK(end.pending_free_bytes() == 128);

  const AllocatorState before_segment_free = history.after_event(10);
  CHECK(before_segment_free.segments().count(0x10000) == 1);
  CHECK(before_segment_free.reserved_bytes() == 4096 + 8192);

  CHECK_FALSE(pending(history.after_event(8), 0x1800));  // before its free_requested
  CHECK_FALSE(has_block(history.after_event(8), 0x1400));

  const AllocatorState waiting = history.after_event(7);  // C freed on its stream, not completed
  REQUIRE(has_block(waiting, 0x1400));
  CHECK(pending(waiting, 0x1400));
  CHECK(waiting.blocks().at(0x1400).size == 1024);
  CHECK(has_block(waiting, 0x1800));

  CHECK_FALSE(pending(history.after_event(5), 0x1400));  // before C's free_requested
  CHECK_FALSE(has_block(history.after_event(5), 0x1200));

  // Merged free (4, 5): between the two halves B is still allocated and never shown pending.
  const AllocatorState mid_free = history.after_event(4);
  REQUIRE(has_block(mid_free, 0x1200));
  CHECK_FALSE(pending(mid_free, 0x1200));

  const AllocatorState first = history.after_event(0);
  CHECK(first.blocks().empty());
  CHECK(first.segments().size() == 2);
  const AllocatorState start = history.at_position(0);
  CHECK(start.segments().size() == 1);  // only the pre-existing segment
  CHECK(start.reserved_bytes() == 8192);

  REQUIRE(history.ooms().size() == 1);
  CHECK(history.ooms()[0].event == 10);
  CHECK(history.ooms()[0].requested == 1 << 20);
  CHECK(history.ooms()[0].device_free == 4096);
}

TEST_CASE("allocator state: expandable segments map and unmap with merge and split") {
  Snapshot s;
  s.device_traces.resize(1);
  auto& e = s.device_traces[0].events;
  e.push_back(event(Action::SegmentMap, 0x100000, 0x2000));  // 0  grows to [0x100000, 0x102000)
  e.push_back(event(Action::SegmentMap, 0x102000, 0x2000));  // 1  grows to 0x104000
  e.push_back(event(Action::SegmentMap, 0x104000, 0x1000));  // 2  grows to 0x105000
  e.push_back(
      event(Action::SegmentUnmap, 0x102000, 0x1000));  // 3  a hole: [0x100000,0x102000) + [0x103000,0x105000)
  e.push_back(event(Action::SegmentUnmap, 0x103000, 0x2000));  // 4  tail gone
  add_segment(s, 0x100000, 0x2000, {});
  AllocatorHistory history = history_of(s);

  auto ranges = [](const AllocatorState& state) {
    std::vector<std::pair<uint64_t, uint64_t>> out;
    for (const auto& [addr, segment] : state.segments()) out.emplace_back(addr, segment.size);
    return out;
  };
  using Ranges = std::vector<std::pair<uint64_t, uint64_t>>;
  CHECK(ranges(history.after_event(4)) == Ranges{{0x100000, 0x2000}});
  CHECK(ranges(history.after_event(3)) == Ranges{{0x100000, 0x2000}, {0x103000, 0x2000}});
  CHECK(ranges(history.after_event(2)) == Ranges{{0x100000, 0x5000}});  // unmap undone: merged both sides
  CHECK(ranges(history.after_event(1)) == Ranges{{0x100000, 0x4000}});  // map undone: trimmed at the end
  CHECK(ranges(history.after_event(0)) == Ranges{{0x100000, 0x2000}});
  CHECK(history.after_event(0).reserved_bytes() == 0x2000);
  // Undoing the first map leaves nothing mapped: the segment is gone.
  CHECK(history.at_position(0).segments().empty());
  CHECK(history.at_position(0).reserved_bytes() == 0);
}

TEST_CASE("allocator state: a map in the middle of a segment splits it") {
  AllocatorState state;
  state.add_segment({0x0, 0x3000, 0, 0});
  const AllocatorEvent map{0x1000, 0x1000, 0, 0, Action::SegmentMap};
  state.undo(map, nullptr, nullptr);
  REQUIRE(state.segments().size() == 2);
  CHECK(state.segments().at(0x0).size == 0x1000);
  CHECK(state.segments().at(0x2000).size == 0x1000);
  CHECK(state.reserved_bytes() == 0x2000);
  // Unmapping on another stream does not merge with the neighbours.
  state.undo({0x1000, 0x1000, 7, 0, Action::SegmentUnmap}, nullptr, nullptr);
  CHECK(state.segments().size() == 3);
}

namespace {

// A longer random-ish trace with allocs, merged and unmerged frees and segment traffic.
Snapshot busy_fixture(size_t rounds) {
  Snapshot s;
  s.device_traces.resize(1);
  auto& e = s.device_traces[0].events;
  uint64_t next_segment = 1ull << 32;
  std::vector<std::pair<uint64_t, uint64_t>> live;
  for (size_t r = 0; r < rounds; ++r) {
    const uint64_t segment = next_segment;
    next_segment += 1 << 20;
    e.push_back(event(Action::SegmentAlloc, segment, 1 << 20));
    for (uint64_t k = 0; k < 4; ++k) {
      const uint64_t size = 1000 + 37 * ((r * 4 + k) % 11);
      e.push_back(event(Action::Alloc, segment + k * 4096, size));
      live.emplace_back(segment + k * 4096, size);
    }
    for (int k = 0; k < 3; ++k) {
      const auto [addr, size] = live.front();
      live.erase(live.begin());
      e.push_back(event(Action::FreeRequested, addr, size));
      if (k == 1) e.push_back(event(Action::Alloc, segment + 5 * 4096, 64));  // another stream's use
      e.push_back(event(Action::FreeCompleted, addr, size));
      if (k == 1) e.push_back(event(Action::FreeCompleted, segment + 5 * 4096, 64));  // free without request
    }
  }
  // The end-of-trace snapshot: every segment, with the blocks still live in it.
  for (uint64_t segment = 1ull << 32; segment < next_segment; segment += 1 << 20) {
    std::vector<Block> blocks;
    for (const auto& [addr, size] : live) {
      if (addr >= segment && addr < segment + (1 << 20))
        blocks.push_back(block(addr, size, size, BlockState::ActiveAllocated));
    }
    add_segment(s, segment, 1 << 20, blocks);
  }
  return s;
}

}  // namespace

TEST_CASE("allocator state: allocated and reserved equal the timelines' totals at every event") {
  const Snapshot s = busy_fixture(40);
  const Timeline blocks(derive_replay_input(s, 0, TimelineKind::Blocks));
  const Timeline segments(derive_replay_input(s, 0, TimelineKind::Segments));
  AllocatorHistory history = history_of(s, 16);
  CHECK(history.checkpoint_count() > 10);
  const auto count = static_cast<int64_t>(history.event_count());
  for (int64_t ev = -1; ev < count; ++ev) {
    const AllocatorState state = history.after_event(ev);
    INFO("event " << ev);
    REQUIRE(state.allocated_bytes() == blocks.total_at_state(state_after_event(blocks, ev)));
    REQUIRE(state.reserved_bytes() == segments.total_at_state(state_after_event(segments, ev)));
  }
}

TEST_CASE("allocator state: checkpoints give the same states as one long undo, within budget") {
  const Snapshot s = busy_fixture(60);
  AllocatorHistory dense = history_of(s, 1u << 30);       // only the final state and position 0
  AllocatorHistory sparse = history_of(s, 8, 24 * 1024);  // forced to thin out
  CHECK(sparse.memory_bytes() <= 24 * 1024);
  CHECK(sparse.checkpoint_interval() > 8);
  for (size_t position = 0; position <= dense.event_count(); position += 7) {
    INFO("position " << position);
    REQUIRE(sparse.at_position(position) == dense.at_position(position));
  }
}

namespace {

// A snapshot's events, with every read the history makes recorded, and how many ran at once.
class RecordingSource : public EventSource {
 public:
  explicit RecordingSource(const Snapshot& snapshot, size_t fail_below = 0)
      : inner_(snapshot, 0), fail_below_(fail_below) {}
  size_t size() const override { return inner_.size(); }
  void read(size_t begin, size_t end, std::vector<AllocatorEvent>& out) override {
    const int running = ++running_;
    {
      const std::lock_guard lock(mutex_);
      reads_.emplace_back(begin, end);
      most_at_once_ = std::max(most_at_once_, running);
    }
    if (begin < fail_below_) {
      --running_;
      throw std::runtime_error("elements.db: a bad row at event " + std::to_string(begin));
    }
    inner_.read(begin, end, out);
    --running_;
  }
  std::vector<std::pair<size_t, size_t>> reads() const {
    const std::lock_guard lock(mutex_);
    return reads_;
  }
  int most_at_once() const {
    const std::lock_guard lock(mutex_);
    return most_at_once_;
  }

 private:
  SnapshotEventSource inner_;
  size_t fail_below_;
  std::atomic<int> running_{0};
  mutable std::mutex mutex_;
  std::vector<std::pair<size_t, size_t>> reads_;
  int most_at_once_ = 0;
};

}  // namespace

// The backward pass reads each chunk on another thread while it undoes the chunk after it: the
// source must still see one read at a time, last chunk first, each with one event on either side
// (for merged frees), and the states must not change at the chunks' edges.
TEST_CASE("allocator history: chunks read ahead, one read at a time, states exact at their edges") {
  const Snapshot s = busy_fixture(11'000);  // about 143k events: more than two chunks
  auto source = std::make_unique<RecordingSource>(s);
  RecordingSource& recorded = *source;
  AllocatorHistory history(final_state_from_snapshot(s, 0), std::move(source),
                           AllocatorHistory::kDefaultBudget, AllocatorHistory::kDefaultInterval);
  const size_t count = history.event_count();
  const auto reads = recorded.reads();
  REQUIRE(reads.size() >= 3);
  CHECK(recorded.most_at_once() == 1);
  CHECK(reads.front().second == count);
  CHECK(reads.back().first == 0);
  std::vector<size_t> edges;  // where one chunk ends and the one after it begins
  for (size_t i = 1; i < reads.size(); ++i) {
    INFO("read " << i);
    CHECK(reads[i].second == reads[i - 1].first + 2);
    CHECK(reads[i].first < reads[i - 1].first);
    edges.push_back(reads[i - 1].first + 1);
  }
  AllocatorHistory one_undo = history_of(s, size_t{1} << 30);  // only the end and position 0
  for (const size_t edge : edges) {
    for (const size_t position : {edge - 1, edge, edge + 1}) {
      INFO("position " << position);
      REQUIRE(history.at_position(position) == one_undo.at_position(position));
    }
  }
  CHECK(history.at_position(0) == one_undo.at_position(0));
}

TEST_CASE("allocator history: a read that fails in a later chunk fails the build with its error") {
  const Snapshot s = busy_fixture(11'000);
  const size_t half = s.device_traces[0].events.size() / 2;
  CHECK_THROWS_WITH_AS(
      AllocatorHistory(final_state_from_snapshot(s, 0), std::make_unique<RecordingSource>(s, half),
                       AllocatorHistory::kDefaultBudget, AllocatorHistory::kDefaultInterval),
      doctest::Contains("elements.db: a bad row at event"), std::runtime_error);
}

TEST_CASE("allocator layout: memory_viz row packing, rounding waste and orphan blocks") {
  AllocatorState state;
  state.add_segment({0x10000, 4000, 0, 0});
  state.add_segment({0x20000, 1000, 0, 0});
  state.add_segment({0x30000, 2000, 0, 0});
  state.add_segment({0x40000, 1000, 0, 0});
  state.add_block({0x30000 + 500, 600, 512, 0, false});
  state.add_block({0x10000, 1000, 1000, 0, true});
  state.add_block({0x90000, 64, 64, 0, false});  // outside every segment
  const SegmentLayout layout = layout_segments(state);
  REQUIRE(layout.segments.size() == 4);
  CHECK(layout.row_width == 4000);
  CHECK(layout.gap == 20);
  // Sorted by size then address: 1000@0x20000, 1000@0x40000, 2000 fill row 0 (4040 > 4000 wraps).
  CHECK(layout.segments[0].segment.addr == 0x20000);
  CHECK(layout.segments[1].segment.addr == 0x40000);
  CHECK(layout.segments[1].x == 1020);
  CHECK(layout.segments[2].segment.addr == 0x30000);
  CHECK(layout.segments[2].row == 1);
  CHECK(layout.segments[2].x == 0);
  CHECK(layout.segments[3].row == 2);
  CHECK(layout.rows == 3);
  CHECK(layout.segments[2].occupied == 512);
  CHECK(layout.segments[2].internal_free == 88);
  CHECK(layout.segments[2].free_bytes() == 1488);
  CHECK(layout.orphan_blocks == 1);
  CHECK(layout.orphan_bytes == 64);
  REQUIRE(layout.blocks.size() == 2);
  const long hit = block_at(layout, 1, 700);
  REQUIRE(hit >= 0);
  CHECK(layout.blocks[static_cast<size_t>(hit)].block.addr == 0x30000 + 500);
  CHECK(block_at(layout, 1, 300) == -1);
  CHECK(segment_at(layout, 1, 300) == 2);
}

TEST_CASE("allocator pools: a segment's private pool is the snapshot segment's holding its address") {
  SegmentPools pools;
  pools.add(0x2000, 0x1000, {1, 7});
  pools.add(0x1000, 0x1000, {0, 0});  // the default pool is not recorded
  pools.add(0x8000, 0x800, {2, 3});
  CHECK(pools.private_pool_at(0x2000) == PoolId{1, 7});
  CHECK(pools.private_pool_at(0x2fff) == PoolId{1, 7});
  CHECK_FALSE(pools.private_pool_at(0x3000));
  CHECK_FALSE(pools.private_pool_at(0x1800));
  CHECK_FALSE(pools.private_pool_at(0x10));
  CHECK(pools.private_pool_at(0x8400) == PoolId{2, 3});

  AllocatorState state;
  state.add_segment({0x1000, 0x1000, 0, 0});
  state.add_segment({0x2000, 0x1000, 0, 0});
  const SegmentLayout layout = layout_segments(state, &pools);
  REQUIRE(layout.segments.size() == 2);
  for (const PlacedSegment& placed : layout.segments) {
    CHECK(placed.pool ==
          (placed.segment.addr == 0x2000 ? std::optional<PoolId>(PoolId{1, 7}) : std::nullopt));
  }
  CHECK_FALSE(layout_segments(state).segments.front().pool);
}

TEST_CASE("allocator pools: read from elements.db's segments, and kept by the history") {
  test::TempDir dir;
  test::FixtureSnapshot fixture = test::standard_fixture();
  test::FixtureSegment graph_pool{0, 0x7f0000000000, 1 << 20, {{1 << 20, 0, "inactive"}}};
  graph_pool.pool_id[0] = 4;  // a CUDA graph's private pool
  graph_pool.pool_id[1] = 11;
  fixture.segments.push_back(graph_pool);
  test::write_file(dir / "p.pickle", test::pickle_bytes(fixture));
  test::convert_into(dir / "p.pickle", dir / "out");
  const std::string db = (dir / "out" / "elements.db").string();
  const int device = 0;
  const SegmentPools pools = segment_pools_from_db(db, device);
  CHECK(pools.private_pool_at(fixture.segments[1].address) == PoolId{4, 11});
  CHECK(pools.private_pool_at(fixture.segments[1].address + fixture.segments[1].total_size - 1) ==
        PoolId{4, 11});
  CHECK_FALSE(pools.private_pool_at(fixture.segments[0].address));
  const auto history = allocator_history_from_db(db, device);
  CHECK(history->pools().private_pool_at(fixture.segments[1].address) == PoolId{4, 11});
}

// The viewer's cold open builds the shown device's history while the converter still holds the
// events, then points it at elements.db: it must answer exactly as one built from elements.db.
TEST_CASE("allocator history: built from the snapshot in memory, then reading elements.db") {
  test::TempDir dir;
  gen::GenOptions options;
  options.events = 30'000;
  options.mem_pool = true;  // private pools for the pools' names
  test::write_generated(dir / "g.pickle", options);
  test::convert_into(dir / "g.pickle", dir / "out");
  const std::string db = (dir / "out" / "elements.db").string();
  const auto from_db = allocator_history_from_db(db, 0);

  auto snapshot = std::make_unique<Snapshot>(read_snapshot((dir / "g.pickle").string()));
  const auto from_memory = allocator_history_from_snapshot(*snapshot, 0);
  REQUIRE(from_memory->event_count() == from_db->event_count());
  CHECK_FALSE(from_memory->replace_events(std::make_unique<TraceEventView>(Snapshot{}, 0)));  // other size
  CHECK(from_memory->replace_events(std::make_unique<DbEventSource>(db, 0)));
  {
    // A long read of elements.db runs in two halves, on two connections: event for event what
    // the snapshot holds, also across the halves' edge and in a range that starts mid-trace.
    SnapshotEventSource in_memory(*snapshot, 0);
    DbEventSource stored(db, 0);
    for (const std::pair<size_t, size_t>& range :
         {std::pair<size_t, size_t>{0, stored.size()}, {1234, 28'001}, {50, 70}}) {
      const size_t begin = range.first, end = range.second;
      INFO("events " << begin << " to " << end);
      std::vector<AllocatorEvent> expected, got;
      in_memory.read(begin, end, expected);
      stored.read(begin, end, got);
      REQUIRE(got.size() == expected.size());
      for (size_t i = 0; i < got.size(); ++i) {
        INFO("event " << begin + i);
        REQUIRE(got[i].addr == expected[i].addr);
        REQUIRE(got[i].size == expected[i].size);
        REQUIRE(got[i].stream == expected[i].stream);
        REQUIRE(got[i].stack == expected[i].stack);
        REQUIRE(got[i].action == expected[i].action);
      }
    }
  }
  snapshot.reset();  // from here on only elements.db is read

  CHECK(from_memory->checkpoint_count() == from_db->checkpoint_count());
  CHECK(from_memory->ooms().size() == from_db->ooms().size());
  for (size_t position = 0; position <= from_db->event_count(); position += 997) {
    INFO("position " << position);
    REQUIRE(from_memory->at_position(position) == from_db->at_position(position));
  }
  REQUIRE(from_memory->at_position(from_db->event_count()) == from_db->at_position(from_db->event_count()));
  for (uint64_t stream : {uint64_t{0}, uint64_t{1}, uint64_t{7}}) {
    CHECK(from_memory->stream_name(stream) == from_db->stream_name(stream));
  }
  const AllocatorState end = from_db->at_position(from_db->event_count());
  size_t pooled = 0;
  for (const auto& [address, segment] : end.segments()) {
    CHECK(from_memory->pools().private_pool_at(address) == from_db->pools().private_pool_at(address));
    pooled += from_db->pools().private_pool_at(address).has_value();
  }
  CHECK(pooled > 0);
}
