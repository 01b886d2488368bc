// The per-device tables: events, both timelines' elements, and the device summary row.
#include <vector>

#include "core/store/elements_db_tables.h"

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

std::optional<int64_t> time_of(const std::vector<TraceEvent>& events, int64_t index) {
  const TraceEvent* event = event_at(events, index);
  return event ? time_or_null(event->time_us) : std::nullopt;
}

// Which element each event created or ended, in the timeline its action belongs to.
void map_events_to_elements(const ReplayInput& input, std::vector<int64_t>& event_elem) {
  for (size_t elem = 0; elem < input.elements.size(); ++elem) {
    const ReplayElement& element = input.elements[elem];
    for (const int64_t event : {element.alloc_event, element.free_event}) {
      if (event >= 0 && static_cast<size_t>(event) < event_elem.size()) {
        event_elem[static_cast<size_t>(event)] = static_cast<int64_t>(elem);
      }
    }
  }
}

uint64_t stream_of(const Snapshot& snapshot, const TraceEvent* source, uint32_t segment) {
  if (source) return source->stream;
  return segment < snapshot.segments.size() ? snapshot.segments[segment].stream : 0;
}

void write_event_extra(SqliteStatement& insert, int device, size_t idx, const TraceEvent& event,
                       const Snapshot& snapshot) {
  const EventExtra* extra =
      event.extra < snapshot.event_extras.size() ? &snapshot.event_extras[event.extra] : nullptr;
  insert.bind(1, int64_t{device});
  insert.bind(2, static_cast<int64_t>(idx));
  insert.bind(3, int64_t{event.unknown_action});
  const bool has_pool = extra && extra->has_pool_id;
  insert.bind_optional(4, has_pool ? std::optional<int64_t>(extra->pool_id[0]) : std::nullopt);
  insert.bind_optional(5, has_pool ? std::optional<int64_t>(extra->pool_id[1]) : std::nullopt);
  insert.bind(6, int64_t{extra ? extra->forward_frames : 0});
  insert.run();
}

}  // namespace

void write_events(SqliteDatabase& db, const Snapshot& snapshot, const DeviceTimelines& device) {
  const int device_id = device.stats.device;
  const std::vector<TraceEvent>& events = events_of(snapshot, device_id);
  std::vector<int64_t> event_elem(events.size(), -1);
  map_events_to_elements(device.blocks->input(), event_elem);
  map_events_to_elements(device.segments->input(), event_elem);

  SqliteStatement insert = db.prepare("INSERT INTO events VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
  SqliteStatement insert_extra = db.prepare("INSERT INTO event_extras VALUES (?, ?, ?, ?, ?, ?)");
  for (size_t idx = 0; idx < events.size(); ++idx) {
    const TraceEvent& event = events[idx];
    insert.bind(1, int64_t{device_id});
    insert.bind(2, static_cast<int64_t>(idx));
    insert.bind(3, int64_t{static_cast<uint8_t>(event.action)});
    insert.bind(4, as_db_int(event.addr));
    insert.bind(5, as_db_int(event.size));
    insert.bind(6, as_db_int(event.stream));
    insert.bind_optional(7, time_or_null(event.time_us));
    insert.bind(8, int64_t{event.stack});
    insert.bind(9, int64_t{event.compile_context});
    insert.bind(10, int64_t{event.user_metadata});
    insert.bind_optional(11, event_or_null(event_elem[idx]));
    insert.run();
    if (event.extra != kNoIndex || event.unknown_action != 0) {
      write_event_extra(insert_extra, device_id, idx, event, snapshot);
    }
  }
}

void write_allocations(SqliteDatabase& db, const Snapshot& snapshot, const DeviceTimelines& device) {
  const Timeline& timeline = *device.blocks;
  const std::vector<TraceEvent>& events = events_of(snapshot, device.stats.device);
  SqliteStatement insert =
      db.prepare("INSERT INTO allocations VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
  for (uint32_t elem = 0; elem < timeline.element_count(); ++elem) {
    const ReplayElement& element = timeline.element(elem);
    const TraceEvent* source = event_at(events, element.source_event);
    const bool from_block = element.block < snapshot.blocks.size();
    const uint32_t segment = from_block ? snapshot.blocks[element.block].segment : element.segment;
    insert.bind(1, int64_t{device.stats.device});
    insert.bind(2, int64_t{elem});
    insert.bind(3, int64_t{timeline.stack_position(elem)});
    insert.bind(4, as_db_int(element.addr));
    insert.bind(5, as_db_int(element.size));
    insert.bind(6, as_db_int(from_block ? snapshot.blocks[element.block].requested_size : element.size));
    insert.bind_optional(7, event_or_null(element.alloc_event));
    insert.bind_optional(8, event_or_null(element.free_event));
    insert.bind(9, int64_t{static_cast<uint8_t>(element.origin)});
    insert.bind(10, int64_t{element.stack});
    insert.bind(11, as_db_int(stream_of(snapshot, source, segment)));
    insert.bind_optional(12, time_of(events, element.alloc_event));
    insert.bind_optional(13, time_of(events, element.free_event));
    insert.bind(14, int64_t{source ? source->compile_context : 0});
    insert.bind(15, int64_t{source ? source->user_metadata : 0});
    insert.bind(16, as_db_int(timeline.total_at_state(timeline.alloc_state(elem))));
    insert.bind_optional(17, from_block ? std::optional<int64_t>(element.block) : std::nullopt);
    insert.run();
  }
}

void write_segment_allocations(SqliteDatabase& db, const Snapshot& snapshot, const DeviceTimelines& device) {
  const Timeline& timeline = *device.segments;
  const std::vector<TraceEvent>& events = events_of(snapshot, device.stats.device);
  SqliteStatement insert =
      db.prepare("INSERT INTO segment_allocations VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
  for (uint32_t elem = 0; elem < timeline.element_count(); ++elem) {
    const ReplayElement& element = timeline.element(elem);
    const TraceEvent* source = event_at(events, element.source_event);
    const bool from_segment = element.segment < snapshot.segments.size();
    insert.bind(1, int64_t{device.stats.device});
    insert.bind(2, int64_t{elem});
    insert.bind(3, int64_t{timeline.stack_position(elem)});
    insert.bind(4, as_db_int(element.addr));
    insert.bind(5, as_db_int(element.size));
    insert.bind_optional(6, event_or_null(element.alloc_event));
    insert.bind_optional(7, event_or_null(element.free_event));
    insert.bind(8, int64_t{static_cast<uint8_t>(element.origin)});
    insert.bind(9, int64_t{element.stack});
    insert.bind(10, as_db_int(stream_of(snapshot, source, element.segment)));
    insert.bind_optional(11, time_of(events, element.alloc_event));
    insert.bind_optional(12, time_of(events, element.free_event));
    insert.bind(13, as_db_int(timeline.total_at_state(timeline.alloc_state(elem))));
    insert.bind_optional(14, from_segment ? std::optional<int64_t>(element.segment) : std::nullopt);
    insert.run();
  }
}

void write_device_row(SqliteDatabase& db, const DeviceTimelines& device) {
  const DeviceStats& stats = device.stats;
  SqliteStatement insert =
      db.prepare("INSERT INTO devices VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
  insert.bind(1, int64_t{stats.device});
  insert.bind(2, as_db_int(stats.events));
  insert.bind(3, as_db_int(stats.allocations));
  insert.bind(4, as_db_int(stats.free_without_alloc));
  insert.bind(5, as_db_int(stats.snapshot_blocks));
  insert.bind(6, as_db_int(stats.peak_bytes));
  insert.bind_optional(7, event_or_null(stats.peak_event));
  insert.bind(8, as_db_int(stats.initial_bytes));
  insert.bind(9, as_db_int(stats.final_bytes));
  insert.bind(10, as_db_int(stats.reserved_bytes));
  insert.bind(11, as_db_int(stats.peak_reserved_bytes));
  insert.bind(12, as_db_int(stats.segment_elements));
  insert.bind(13, static_cast<int64_t>(device.blocks->action_count()));
  insert.bind(14, static_cast<int64_t>(device.segments->action_count()));
  insert.bind_optional(15, time_or_null(stats.first_time_us));
  insert.bind_optional(16, time_or_null(stats.last_time_us));
  insert.run();
}

}  // namespace snapscope::elements_db
