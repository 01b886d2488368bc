// The per-device tables that need the replayed timelines: both timelines' elements and the
// device summary row.
#include <algorithm>
#include <span>
#include <stdexcept>
#include <vector>

#include "core/store/elements_db/elements_db_tables.h"
#include "core/store/elements_db/sqlite_batch_insert.h"
#include "core/store/elements_db/sqlite_row_feed.h"

namespace snapscope::elements_db {
namespace {

const std::vector<TraceEvent>& events_of(const Snapshot& snapshot, int device) {
  static const std::vector<TraceEvent> kNone;
  const auto index = static_cast<size_t>(device);
  return index < snapshot.device_traces.size() ? snapshot.device_traces[index].events : kNone;
}

const TraceEvent* event_at(const std::vector<TraceEvent>& events, int64_t index) {
  return index >= 0 && static_cast<size_t>(index) < events.size() ? &events[static_cast<size_t>(index)]
                                                                  : nullptr;
}

const TraceEvent* source_event(const Snapshot& snapshot, const ReplayInput& input, uint32_t elem) {
  return event_at(events_of(snapshot, input.device), input.elements[elem].source_event());
}

// Snapshot blocks' segment is their block's segment.
uint64_t segment_stream(const Snapshot& snapshot, const ReplayInput& input, uint32_t elem) {
  const uint32_t segment = input.segment_of(elem);
  return segment < snapshot.segments.size() ? snapshot.segments[segment].stream : 0;
}

// The given streams, or computed from the snapshot's events into `storage`.
const ElementStreams& streams_of(const ElementStreams* given, const Snapshot& snapshot,
                                 const Timeline& timeline, ElementStreams& storage) {
  if (!given) storage = element_streams(snapshot, timeline.input());
  const ElementStreams& streams = given ? *given : storage;
  if (streams.size() != timeline.element_count()) throw std::logic_error("element streams do not match");
  return streams;
}

// The columns both timelines' tables share, in order: alloc_event, free_event, origin,
// stack_id, stream, total_after_alloc. `stack_id` NULL: the alloc event's (allocation_rows).
void put_lifetime(std::span<FeedValue> v, const Timeline& timeline, uint32_t elem, uint64_t stream,
                  bool stack_from_event) {
  const ReplayElement& element = timeline.element(elem);
  v[0] = feed_value(event_or_null(element.alloc_event));
  v[1] = feed_value(event_or_null(element.free_event));
  v[2] = {static_cast<int64_t>(element.origin)};
  v[3] = stack_from_event ? FeedValue{0, true} : FeedValue{element.stack};
  v[4] = {static_cast<int64_t>(stream)};
  v[5] = {static_cast<int64_t>(timeline.total_at_state(timeline.alloc_state(elem)))};
}

// A traced element is its alloc event's address, size and stack (ReplayInput::on_alloc):
// allocation_rows leaves them to the event.
bool traced(const ReplayElement& element) {
  return element.origin == Origin::Traced && element.alloc_event >= 0;
}

// Allocations come in stack order after everything pre-existing, so a stack position is
// nearly always the element's index plus the device's pre-existing elements (exactly so after
// the last free-without-alloc element): allocation_rows leaves that to the view (NULL).
FeedValue stack_index_or_null(const Timeline& timeline, uint32_t elem, const DeviceStats& stats) {
  const int64_t position = timeline.stack_position(elem);
  return position == static_cast<int64_t>(elem + stats.pre_existing()) ? FeedValue{0, true}
                                                                       : FeedValue{position};
}

// allocation_rows.free_after: the free event as a distance from the alloc event (from event 0
// without one), a few hundred events for most allocations instead of millions; NULL if never freed.
FeedValue free_after(const ReplayElement& element) {
  if (element.free_event < 0) return {0, true};
  return {element.free_event - std::max<int64_t>(element.alloc_event, 0)};
}

}  // namespace

void write_allocations(RowidTablePages& pages, const Snapshot& snapshot, const DeviceTimelines& device) {
  const Timeline& timeline = *device.blocks;
  ElementStreams storage;
  const ElementStreams& streams = streams_of(device.block_streams, snapshot, timeline, storage);
  // id and the stored columns: device and elem are computed from id.
  pages.insert(timeline.element_count(), [&](size_t row, std::span<FeedValue> v) {
    const auto elem = static_cast<uint32_t>(row);
    const ReplayElement& element = timeline.element(elem);
    const uint32_t block_index = timeline.input().block_of(elem);
    const Block* block = block_index < snapshot.blocks.size() ? &snapshot.blocks[block_index] : nullptr;
    v[0] = {event_key(device.stats.device, elem)};
    const bool from_event = traced(element);
    v[1] = stack_index_or_null(timeline, elem, device.stats);
    v[2] = from_event ? FeedValue{0, true} : FeedValue{static_cast<int64_t>(element.addr)};
    v[3] = from_event ? FeedValue{0, true} : FeedValue{static_cast<int64_t>(element.size)};
    v[4] = feed_value(block && block->requested_size != element.size
                          ? std::optional<int64_t>(static_cast<int64_t>(block->requested_size))
                          : std::nullopt);
    put_lifetime(v.subspan(5, 6), timeline, elem, streams[elem], from_event);
    v[6] = free_after(element);  // in place of put_lifetime's free_event
    v[11] = feed_value(block ? index_or_null(block_index) : std::nullopt);
  });
}

void write_segment_allocations(SqliteDatabase& db, const Snapshot& snapshot, const DeviceTimelines& device) {
  const Timeline& timeline = *device.segments;
  ElementStreams storage;
  const ElementStreams& streams = streams_of(device.segment_streams, snapshot, timeline, storage);
  SqliteRowFeed feed(db, "segment_allocations", 12, "segment_allocations_feed");
  feed.insert(timeline.element_count(), [&](size_t row, std::span<FeedValue> v) {
    const auto elem = static_cast<uint32_t>(row);
    const ReplayElement& element = timeline.element(elem);
    const uint32_t segment = timeline.input().segment_of(elem);
    v[0] = {device.stats.device};
    v[1] = {elem};
    v[2] = {timeline.stack_position(elem)};
    v[3] = {static_cast<int64_t>(element.addr)};
    v[4] = {static_cast<int64_t>(element.size)};
    put_lifetime(v.subspan(5, 6), timeline, elem, streams[elem], false);
    v[11] = feed_value(segment < snapshot.segments.size() ? index_or_null(segment) : std::nullopt);
  });
}

void write_device_row(SqliteDatabase& db, const DeviceTimelines& device) {
  const DeviceStats& stats = device.stats;
  SqliteBatchInsert insert(db, "devices", 16);
  insert.add(stats.device).add(stats.events).add(stats.allocations).add(stats.free_without_alloc);
  insert.add(stats.snapshot_blocks).add(stats.peak_bytes).add(event_or_null(stats.peak_event));
  insert.add(stats.initial_bytes)
      .add(stats.final_bytes)
      .add(stats.reserved_bytes)
      .add(stats.peak_reserved_bytes);
  insert.add(stats.segment_elements).add(static_cast<uint64_t>(device.blocks->action_count()));
  insert.add(static_cast<uint64_t>(device.segments->action_count()));
  insert.add(time_or_null(stats.first_time_us)).add(time_or_null(stats.last_time_us));
  insert.end_row();
  insert.flush();
}

void write_reserved_steps(SqliteDatabase& db, const DeviceTimelines& device) {
  if (device.reserved == nullptr) return;
  SqliteBatchInsert insert(db, "reserved_steps", 3);
  // Event -1: before the first event.
  insert.add(device.stats.device).add(int64_t{-1}).add(device.reserved->initial());
  insert.end_row();
  for (const ReservedStep& step : device.reserved->steps()) {
    insert.add(device.stats.device).add(step.event).add(step.reserved);
    insert.end_row();
  }
  insert.flush();
}

}  // namespace snapscope::elements_db

namespace snapscope {

uint64_t element_stream(const Snapshot& snapshot, const ReplayInput& input, uint32_t elem) {
  if (const TraceEvent* source = elements_db::source_event(snapshot, input, elem))
    return snapshot.stream_of(*source);
  return elements_db::segment_stream(snapshot, input, elem);
}

ElementStreams element_streams(const Snapshot& snapshot, const ReplayInput& input) {
  StreamTable table = snapshot.streams;  // the same ids, plus segments' streams that no event has
  ElementStreams streams;
  streams.ids.reserve(input.elements.size());
  for (uint32_t elem = 0; elem < input.elements.size(); ++elem) {
    const TraceEvent* source = elements_db::source_event(snapshot, input, elem);
    streams.ids.push_back(source ? snapshot.stream_id_of(*source)
                                 : table.intern(elements_db::segment_stream(snapshot, input, elem)));
  }
  streams.values.assign(table.values().begin(), table.values().end());
  return streams;
}

}  // namespace snapscope
