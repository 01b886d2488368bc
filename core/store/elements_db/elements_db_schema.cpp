#include "core/store/elements_db/elements_db_schema.h"

namespace snapscope {

// Hot tables hold nothing derivable (size is what matters at millions of rows): events and
// allocation_rows are rowid tables keyed by device << 40 | index, the events' times relative to
// devices.first_time_us (a rowid table fills its pages when appended to: a WITHOUT ROWID table
// took 15 % more pages and 40 % more time to write; both are written as pages by
// RowidTablePages, not inserted through SQLite). A traced allocation's addr, size and stack_id
// are its alloc event's, so its row holds NULL there (11 bytes less per row). Its usual
// stack_index (the element's index plus the device's pre-existing elements) is NULL too, and
// its free event is stored as free_after, the distance from the alloc event (5 bytes less per
// row together). The views put all of these back; the stack_index in a subquery that only NULL
// rows evaluate. An event's stream, compile_context and user_metadata (zero on nearly every
// event, a few distinct triples at most) are one event_contexts id. stacks is WITHOUT ROWID.
// Keep docs/FORMAT.md in sync.
const char* const kElementsDbTables = R"sql(
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE action_names (action INTEGER PRIMARY KEY, name TEXT NOT NULL);
CREATE TABLE origin_names (origin INTEGER PRIMARY KEY, name TEXT NOT NULL);
CREATE TABLE strings (id INTEGER PRIMARY KEY, text TEXT NOT NULL);
CREATE TABLE frames (
  id INTEGER PRIMARY KEY, name INTEGER NOT NULL, filename INTEGER NOT NULL, line INTEGER NOT NULL,
  fx_node_op INTEGER NOT NULL, fx_node_name INTEGER NOT NULL, fx_node_target INTEGER NOT NULL,
  fx_original_trace INTEGER NOT NULL);
CREATE TABLE stacks (
  stack_id INTEGER NOT NULL, depth INTEGER NOT NULL, frame_id INTEGER NOT NULL,
  PRIMARY KEY (stack_id, depth)) WITHOUT ROWID;
CREATE TABLE devices (
  device INTEGER PRIMARY KEY, events INTEGER NOT NULL, allocations INTEGER NOT NULL,
  free_without_alloc INTEGER NOT NULL, snapshot_blocks INTEGER NOT NULL,
  peak_bytes INTEGER NOT NULL, peak_event INTEGER, initial_bytes INTEGER NOT NULL,
  final_bytes INTEGER NOT NULL, reserved_bytes INTEGER NOT NULL,
  peak_reserved_bytes INTEGER NOT NULL, segment_allocations INTEGER NOT NULL,
  block_actions INTEGER NOT NULL, segment_actions INTEGER NOT NULL,
  first_time_us INTEGER, last_time_us INTEGER);
CREATE TABLE events (
  id INTEGER PRIMARY KEY, action INTEGER NOT NULL, addr INTEGER NOT NULL, size INTEGER NOT NULL,
  dt_us INTEGER, stack_id INTEGER NOT NULL, context INTEGER NOT NULL);
CREATE TABLE event_contexts (
  id INTEGER PRIMARY KEY, stream INTEGER NOT NULL, compile_context INTEGER NOT NULL,
  user_metadata INTEGER NOT NULL);
CREATE TABLE event_extras (
  device INTEGER NOT NULL, idx INTEGER NOT NULL, raw_action INTEGER NOT NULL,
  pool_id_0 INTEGER, pool_id_1 INTEGER, forward_frames INTEGER NOT NULL,
  PRIMARY KEY (device, idx)) WITHOUT ROWID;
CREATE TABLE allocation_rows (
  id INTEGER PRIMARY KEY, stack_index INTEGER, addr INTEGER, size INTEGER,
  requested_size INTEGER, alloc_event INTEGER, free_after INTEGER, origin INTEGER NOT NULL,
  stack_id INTEGER, stream INTEGER NOT NULL, total_after_alloc INTEGER NOT NULL, block_id INTEGER);
CREATE TABLE segment_allocations (
  device INTEGER NOT NULL, elem INTEGER NOT NULL, stack_index INTEGER NOT NULL,
  addr INTEGER NOT NULL, size INTEGER NOT NULL, alloc_event INTEGER, free_event INTEGER,
  origin INTEGER NOT NULL, stack_id INTEGER NOT NULL, stream INTEGER NOT NULL,
  total_after_alloc INTEGER NOT NULL, segment_id INTEGER,
  PRIMARY KEY (device, elem)) WITHOUT ROWID;
CREATE TABLE segments (
  id INTEGER PRIMARY KEY, device INTEGER NOT NULL, address INTEGER NOT NULL,
  total_size INTEGER NOT NULL, allocated_size INTEGER NOT NULL, active_size INTEGER NOT NULL,
  requested_size INTEGER NOT NULL, stream INTEGER NOT NULL, segment_type TEXT NOT NULL,
  pool_id_0 INTEGER NOT NULL, pool_id_1 INTEGER NOT NULL, is_expandable INTEGER NOT NULL,
  stack_id INTEGER NOT NULL);
CREATE TABLE blocks (
  id INTEGER PRIMARY KEY, segment_id INTEGER NOT NULL, address INTEGER NOT NULL,
  size INTEGER NOT NULL, requested_size INTEGER NOT NULL, state TEXT NOT NULL,
  stack_id INTEGER NOT NULL);
CREATE TABLE annotations (
  id INTEGER PRIMARY KEY, device INTEGER NOT NULL, stage TEXT NOT NULL, name TEXT NOT NULL,
  time_us INTEGER);
CREATE TABLE allocator_settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE reserved_steps (
  device INTEGER NOT NULL, idx INTEGER NOT NULL, reserved INTEGER NOT NULL,
  PRIMARY KEY (device, idx)) WITHOUT ROWID;
CREATE VIEW event_view AS
SELECT e.id >> 40 AS device, e.id & 1099511627775 AS idx, e.action, e.addr, e.size, c.stream,
       d.first_time_us + e.dt_us AS time_us, e.stack_id, c.compile_context, c.user_metadata
FROM events e LEFT JOIN devices d ON d.device = e.id >> 40 LEFT JOIN event_contexts c ON c.id = e.context;
CREATE VIEW allocations AS
SELECT a.id, a.id >> 40 AS device, a.id & 1099511627775 AS elem,
       coalesce(a.stack_index, (a.id & 1099511627775) + (SELECT d.snapshot_blocks + d.free_without_alloc
                                                         FROM devices d WHERE d.device = a.id >> 40)) AS stack_index,
       coalesce(a.addr, ae.addr) AS addr, coalesce(a.size, ae.size) AS size, a.requested_size,
       a.alloc_event, coalesce(a.alloc_event, 0) + a.free_after AS free_event, a.origin,
       coalesce(a.stack_id, ae.stack_id) AS stack_id, a.stream, a.total_after_alloc, a.block_id
FROM allocation_rows a
LEFT JOIN events ae ON ae.id = ((a.id >> 40) << 40) + a.alloc_event;
CREATE VIEW allocation_view AS
SELECT a.id, a.id >> 40 AS device, a.id & 1099511627775 AS elem,
       coalesce(a.stack_index, (a.id & 1099511627775) + d.snapshot_blocks + d.free_without_alloc) AS stack_index,
       coalesce(a.addr, ae.addr) AS addr, coalesce(a.size, ae.size) AS size,
       coalesce(a.requested_size, a.size, ae.size) AS requested_size,
       a.alloc_event, coalesce(a.alloc_event, 0) + a.free_after AS free_event, a.origin,
       coalesce(a.stack_id, ae.stack_id) AS stack_id, a.stream,
       d.first_time_us + ae.dt_us AS alloc_time_us, d.first_time_us + fe.dt_us AS free_time_us,
       coalesce(sc.compile_context, 0) AS compile_context, coalesce(sc.user_metadata, 0) AS user_metadata,
       a.total_after_alloc, a.block_id
FROM allocation_rows a
LEFT JOIN devices d ON d.device = a.id >> 40
LEFT JOIN events ae ON ae.id = ((a.id >> 40) << 40) + a.alloc_event
LEFT JOIN events fe ON fe.id = ((a.id >> 40) << 40) + coalesce(a.alloc_event, 0) + a.free_after
LEFT JOIN event_contexts sc ON sc.id = CASE a.origin WHEN 0 THEN ae.context WHEN 1 THEN fe.context END;
CREATE VIEW segment_allocation_view AS
SELECT a.device, a.elem, a.stack_index, a.addr, a.size, a.alloc_event, a.free_event, a.origin,
       a.stack_id, a.stream, d.first_time_us + ae.dt_us AS alloc_time_us,
       d.first_time_us + fe.dt_us AS free_time_us, a.total_after_alloc, a.segment_id
FROM segment_allocations a
LEFT JOIN devices d ON d.device = a.device
LEFT JOIN events ae ON ae.id = (a.device << 40) + a.alloc_event
LEFT JOIN events fe ON fe.id = (a.device << 40) + a.free_event;
)sql";

// No index on allocations.size: it cost 37 MB and 1.6 s per GB of input, and the queries on
// size (top N, ranges) read much of the table anyway (the "Largest allocations" example scans
// 2.9M rows in about 0.3 s). Nor on allocations.addr (format 3): its random inserts were ~40 %
// of writing the table, and 7 % of the output; the viewer finds addresses in its timelines,
// and an SQL lookup by address scans the table in a fraction of a second. Nor on
// allocations.alloc_event (format 4): a third of the time to write the table and 7 % of the
// output, for one lookup the viewer does in its timeline (event -> allocation). SQL joins go
// from allocations to events, by the events' key (docs/FORMAT.md).
const char* const kElementsDbLayoutIndexes = R"sql(
CREATE INDEX segment_allocations_by_addr ON segment_allocations (addr);
)sql";

const char* const kElementsDbIndexes = R"sql(
CREATE INDEX blocks_by_segment ON blocks (segment_id);
CREATE INDEX segments_by_device ON segments (device);
)sql";

}  // namespace snapscope
