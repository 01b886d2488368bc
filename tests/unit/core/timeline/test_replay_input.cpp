// derive_replay_input on hand-built snapshots: memory_viz's element/action rules.
#include <doctest/doctest.h>

#include <initializer_list>
#include <vector>

#include "core/timeline/replay_input.h"

using namespace snapscope;

namespace {

TraceEvent event(Action action, uint64_t addr, uint64_t size, int64_t time_us = kNoTime) {
  TraceEvent e;
  e.set_action(action);
  e.addr = addr;
  e.size = size;
  e.time_us = time_us;
  return e;
}

void add_trace(Snapshot& snapshot, size_t device, std::initializer_list<TraceEvent> events) {
  if (snapshot.device_traces.size() <= device) snapshot.device_traces.resize(device + 1);
  snapshot.device_traces[device].events.assign(events.begin(), events.end());
}

struct BlockSpec {
  uint64_t size;
  uint64_t requested_size;
  BlockState state;
};

// Appends a segment; block addresses follow memory_viz: segment address + earlier block sizes.
void add_segment(Snapshot& snapshot, int64_t device, uint64_t address,
                 std::initializer_list<BlockSpec> blocks) {
  Segment segment;
  segment.device = device;
  segment.address = address;
  segment.first_block = static_cast<uint32_t>(snapshot.blocks.size());
  segment.block_count = static_cast<uint32_t>(blocks.size());
  uint64_t addr = address;
  for (const BlockSpec& spec : blocks) {
    Block block;
    block.address = addr;
    block.size = spec.size;
    block.requested_size = spec.requested_size;
    block.state = spec.state;
    block.segment = static_cast<uint32_t>(snapshot.segments.size());
    snapshot.blocks.push_back(block);
    segment.total_size += spec.size;
    addr += spec.size;
  }
  snapshot.segments.push_back(segment);
}

std::vector<uint32_t> action_elems(const ReplayInput& input) {
  std::vector<uint32_t> out;
  for (const ReplayAction& a : input.actions) out.push_back(a.elem);
  return out;
}

std::vector<int64_t> action_events(const ReplayInput& input) {
  std::vector<int64_t> out;
  ActionEventWalk walk(input);
  for (const ReplayAction& a : input.actions) out.push_back(walk.next(a));
  return out;
}

using Elems = std::vector<uint32_t>;
using Events = std::vector<int64_t>;

}  // namespace

TEST_CASE("replay input: alloc/free pairs, merged and delayed free_completed") {
  Snapshot snapshot;
  add_trace(
      snapshot, 0,
      {event(Action::Alloc, 100, 10), event(Action::Alloc, 200, 20), event(Action::FreeRequested, 100, 10),
       event(Action::FreeCompleted, 100, 10), event(Action::FreeRequested, 200, 20),
       event(Action::Alloc, 300, 30), event(Action::FreeCompleted, 200, 20)});
  const ReplayInput input = derive_replay_input(snapshot, 0, TimelineKind::Blocks);
  REQUIRE(input.elements.size() == 3);
  CHECK(action_elems(input) == Elems{0, 1, 0, 2, 1});
  // Merged frees are reported at the free_completed's raw index, as memory_viz's reference does.
  CHECK(action_events(input) == Events{0, 1, 3, 5, 6});
  CHECK(input.elements[0].alloc_event == 0);
  CHECK(input.elements[0].free_event == 3);
  CHECK(input.elements[1].free_event == 6);
  CHECK(input.elements[2].free_event == -1);
  CHECK(input.initial_stack.empty());
  CHECK_FALSE(input.synthetic_action);
  CHECK(input.action_time_us.empty());
}

TEST_CASE("replay input: frees without alloc take size from the kept event") {
  Snapshot snapshot;
  add_trace(snapshot, 0,
            {event(Action::FreeRequested, 100, 11), event(Action::FreeCompleted, 100, 999),
             event(Action::FreeRequested, 200, 22), event(Action::Alloc, 300, 30),
             event(Action::FreeCompleted, 200, 777), event(Action::FreeCompleted, 100, 55)});
  const ReplayInput input = derive_replay_input(snapshot, 0, TimelineKind::Blocks);
  REQUIRE(input.elements.size() == 4);
  const ReplayElement& merged = input.elements[0];
  CHECK(merged.origin == Origin::FreeWithoutAlloc);
  CHECK(merged.merged_free);
  CHECK(merged.size == 11);  // from the free_requested memory_viz turned into "free"
  CHECK(merged.source_event() == 1);
  CHECK(merged.free_event == 1);
  const ReplayElement& delayed = input.elements[2];
  CHECK(delayed.origin == Origin::FreeWithoutAlloc);
  CHECK_FALSE(delayed.merged_free);
  CHECK(delayed.size == 777);
  CHECK(delayed.source_event() == 4);
  // The second free_completed of 100 is not merged (its predecessor is an alloc).
  CHECK_FALSE(input.elements[3].merged_free);
  CHECK(input.elements[3].size == 55);
  CHECK(action_elems(input) == Elems{0, 1, 2, 3});
  CHECK(action_events(input) == Events{1, 3, 4, 5});
  // initially_allocated = [0, 2, 3], reversed and stacked bottom to top.
  CHECK(input.initial_stack == Elems{3, 2, 0});
}

TEST_CASE("replay input: a free_completed merges only once after its request") {
  Snapshot snapshot;
  add_trace(snapshot, 0,
            {event(Action::FreeRequested, 100, 8), event(Action::FreeCompleted, 100, 8),
             event(Action::FreeCompleted, 100, 9)});
  const ReplayInput input = derive_replay_input(snapshot, 0, TimelineKind::Blocks);
  REQUIRE(input.elements.size() == 2);
  CHECK(input.elements[0].merged_free);
  CHECK_FALSE(input.elements[1].merged_free);
  CHECK(input.elements[1].size == 9);
}

TEST_CASE("replay input: a re-used address frees the latest alloc") {
  Snapshot snapshot;
  add_trace(snapshot, 0,
            {event(Action::Alloc, 100, 10), event(Action::Alloc, 100, 20),
             event(Action::FreeCompleted, 100, 20), event(Action::FreeCompleted, 100, 10)});
  const ReplayInput input = derive_replay_input(snapshot, 0, TimelineKind::Blocks);
  REQUIRE(input.elements.size() == 3);
  CHECK(action_elems(input) == Elems{0, 1, 1, 2});
  CHECK(input.elements[0].free_event == -1);
  CHECK(input.elements[1].free_event == 2);
  CHECK(input.elements[2].origin == Origin::FreeWithoutAlloc);
  CHECK(input.initial_stack == Elems{2});
}

TEST_CASE("replay input: snapshot blocks not live at trace end become ghosts") {
  Snapshot snapshot;
  add_segment(snapshot, 0, 1000,
              {{100, 90, BlockState::ActiveAllocated},
               {50, 50, BlockState::Inactive},
               {200, 150, BlockState::ActiveAllocated},
               {60, 60, BlockState::ActiveAllocated}});
  // 1000 is freed in the trace (so its block is a ghost again), 1150 stays live.
  add_trace(snapshot, 0,
            {event(Action::Alloc, 1000, 90), event(Action::Alloc, 1150, 150),
             event(Action::FreeCompleted, 1000, 90)});
  const ReplayInput input = derive_replay_input(snapshot, 0, TimelineKind::Blocks);
  REQUIRE(input.elements.size() == 4);
  CHECK(input.elements[2].origin == Origin::SnapshotBlock);
  CHECK(input.elements[2].addr == 1000);
  CHECK(input.elements[2].size == 90);  // requested_size, not the block size
  CHECK(input.block_of(2) == 0);
  CHECK(input.segment_of(2) == 0);
  CHECK(input.elements[3].addr == 1350);
  CHECK(input.block_of(3) == 3);
  CHECK(input.block_of(0) == kNoIndex);
  CHECK(input.element_blocks == Column<ElementRef>{{2, 0}, {3, 3}});
  CHECK(input.initial_stack == Elems{3, 2});
  CHECK(action_elems(input) == Elems{0, 1, 0});
}

TEST_CASE("replay input: segments only promotes the first snapshot element") {
  Snapshot snapshot;
  add_trace(snapshot, 0, {});
  add_trace(snapshot, 1, {});
  add_segment(snapshot, 1, 5000,
              {{10, 10, BlockState::ActiveAllocated},
               {20, 20, BlockState::Inactive},
               {30, 25, BlockState::ActiveAllocated}});
  add_segment(snapshot, 1, 9000, {{40, 40, BlockState::ActiveAllocated}});

  const ReplayInput blocks = derive_replay_input(snapshot, 1, TimelineKind::Blocks);
  REQUIRE(blocks.elements.size() == 3);
  CHECK(blocks.synthetic_action);
  CHECK(action_elems(blocks) == Elems{0});
  CHECK(action_events(blocks) == Events{-1});
  CHECK(blocks.initial_stack == Elems{2, 1});
  CHECK(blocks.elements[1].size == 25);

  const ReplayInput segments = derive_replay_input(snapshot, 1, TimelineKind::Segments);
  REQUIRE(segments.elements.size() == 2);
  CHECK(segments.elements[0].origin == Origin::SnapshotSegment);
  CHECK(segments.elements[0].size == 60);
  CHECK(segments.elements[1].addr == 9000);
  CHECK(segments.synthetic_action);
  CHECK(action_elems(segments) == Elems{0});
  CHECK(segments.initial_stack == Elems{1});

  const ReplayInput empty = derive_replay_input(snapshot, 0, TimelineKind::Blocks);
  CHECK(empty.elements.empty());
  CHECK(empty.actions.empty());
  CHECK_FALSE(empty.synthetic_action);
  CHECK(derive_replay_input(snapshot, 7, TimelineKind::Segments).elements.empty());
}

TEST_CASE("replay input: devices are kept apart") {
  Snapshot snapshot;
  add_trace(snapshot, 0, {event(Action::Alloc, 100, 1)});
  add_trace(snapshot, 1, {event(Action::Alloc, 200, 2), event(Action::FreeCompleted, 200, 2)});
  add_segment(snapshot, 0, 100, {{8, 1, BlockState::ActiveAllocated}});
  add_segment(snapshot, 1, 300, {{4, 4, BlockState::ActiveAllocated}});
  const ReplayInput d0 = derive_replay_input(snapshot, 0, TimelineKind::Blocks);
  const ReplayInput d1 = derive_replay_input(snapshot, 1, TimelineKind::Blocks);
  CHECK(d0.device == 0);
  REQUIRE(d0.elements.size() == 1);  // the block at 100 is live in the trace
  CHECK(d1.device == 1);
  REQUIRE(d1.elements.size() == 2);
  CHECK(d1.elements[1].addr == 300);
  CHECK(action_elems(d1) == Elems{0, 0});
}

TEST_CASE("replay input: segment timeline uses segment_alloc and segment_free") {
  Snapshot snapshot;
  add_trace(snapshot, 0,
            {event(Action::SegmentAlloc, 1000, 100), event(Action::Alloc, 1000, 10),
             event(Action::SegmentAlloc, 2000, 200), event(Action::SegmentFree, 1000, 100),
             event(Action::SegmentFree, 3000, 300), event(Action::FreeCompleted, 1000, 10)});
  add_segment(snapshot, 0, 2000, {{200, 200, BlockState::Inactive}});
  add_segment(snapshot, 0, 4000, {{400, 400, BlockState::Inactive}});
  const ReplayInput input = derive_replay_input(snapshot, 0, TimelineKind::Segments);
  REQUIRE(input.elements.size() == 4);
  CHECK(input.kind == TimelineKind::Segments);
  CHECK(action_elems(input) == Elems{0, 1, 0, 2});
  CHECK(action_events(input) == Events{0, 2, 3, 4});
  CHECK(input.elements[2].origin == Origin::FreeWithoutAlloc);
  CHECK(input.elements[2].size == 300);
  CHECK(input.elements[3].origin == Origin::SnapshotSegment);
  CHECK(input.elements[3].addr == 4000);
  CHECK(snapshot.stacks.frames(input.elements[3].stack).empty());  // memory_viz shows no frames
  CHECK(input.initial_stack == Elems{3, 2});
}

TEST_CASE("replay input: action times follow the action's raw event") {
  Snapshot snapshot;
  add_trace(snapshot, 0,
            {event(Action::Alloc, 100, 10, 5), event(Action::FreeRequested, 100, 10, 6),
             event(Action::FreeCompleted, 100, 10, 7), event(Action::Alloc, 200, 10)});
  const ReplayInput input = derive_replay_input(snapshot, 0, TimelineKind::Blocks);
  CHECK(input.action_time_us == ActionTimes{5, 7, kNoTime});
  CHECK(derive_replay_input(snapshot, 0, TimelineKind::Segments).action_time_us.empty());
}

// Each action's time is read as the trace is scanned; ActionEventWalk finds the same event from
// the elements afterwards. Both must agree where the event is not the element's source: a merged
// free, a free without an alloc, an address allocated twice without a free, and the synthetic
// action of a trace without actions.
TEST_CASE("replay input: action times are those of ActionEventWalk's events") {
  Snapshot snapshot;
  add_trace(snapshot, 0,
            {event(Action::FreeRequested, 900, 8, 1), event(Action::FreeCompleted, 900, 8, 2),
             event(Action::Alloc, 100, 10, 3), event(Action::Alloc, 100, 10, 4),
             event(Action::FreeRequested, 100, 10, 5), event(Action::FreeCompleted, 100, 10, 6),
             event(Action::Alloc, 200, 20, 7), event(Action::FreeCompleted, 300, 30, 8),
             event(Action::FreeCompleted, 100, 10, 9)});
  add_segment(snapshot, 0, 4096, {{64, 64, BlockState::ActiveAllocated}});
  const ReplayInput input = derive_replay_input(snapshot, 0, TimelineKind::Blocks);
  const std::vector<TraceEvent>& events = snapshot.device_traces[0].events;
  REQUIRE(input.action_time_us.size() == input.actions.size());
  ActionEventWalk walk(input);
  for (size_t k = 0; k < input.actions.size(); ++k) {
    const EventIndex at = walk.next(input.actions[k]);
    CHECK(input.action_time_us[k] == (at < 0 ? kNoTime : events[static_cast<size_t>(at)].time_us));
  }
  CHECK(input.action_time_us == ActionTimes{2, 3, 4, 6, 7, 8, 9});

  Snapshot untraced;  // timed events, none an action: one snapshot block becomes the action
  add_trace(untraced, 0, {event(Action::Oom, 0, 0, 11)});
  add_segment(untraced, 0, 4096, {{64, 64, BlockState::ActiveAllocated}});
  const ReplayInput synthetic = derive_replay_input(untraced, 0, TimelineKind::Blocks);
  REQUIRE(synthetic.synthetic_action);
  CHECK(synthetic.action_time_us == ActionTimes{kNoTime});
}

TEST_CASE("replay input: origin names") {
  CHECK(std::string(origin_name(Origin::Traced)) == "traced");
  CHECK(std::string(origin_name(Origin::SnapshotSegment)) == "snapshot_segment");
}
