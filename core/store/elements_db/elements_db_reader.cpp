#include "core/store/elements_db/elements_db_reader.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <stdexcept>
#include <unordered_map>
#include <vector>

#include "core/store/elements_db/elements_db.h"
#include "core/store/elements_db/row_limits.h"
#include "core/store/elements_db/sqlite_handle.h"

namespace snapscope {
namespace {

// Shared by both timelines; the segment table has no requested size (NULL in its place).
constexpr const char* kBlockQuery = R"sql(
SELECT a.addr, a.size, a.requested_size, a.stream, a.alloc_event, a.free_event, a.alloc_time_us,
       a.free_time_us, a.total_after_alloc, a.origin, a.stack_id, cc.text, um.text, ff.text,
       x.pool_id_0, x.pool_id_1, a.stack_index
FROM allocation_view a
LEFT JOIN strings cc ON cc.id = a.compile_context
LEFT JOIN strings um ON um.id = a.user_metadata
LEFT JOIN event_extras x ON x.device = a.device AND x.idx = a.alloc_event
LEFT JOIN strings ff ON ff.id = x.forward_frames
WHERE a.id = (?1 << 40) | ?2)sql";

constexpr const char* kSegmentQuery = R"sql(
SELECT a.addr, a.size, NULL, a.stream, a.alloc_event, a.free_event, a.alloc_time_us,
       a.free_time_us, a.total_after_alloc, a.origin, a.stack_id, '', '', NULL, NULL, NULL, a.stack_index
FROM segment_allocation_view a
WHERE a.device = ? AND a.elem = ?)sql";

// events.id = device << 40 | event index (docs/FORMAT.md): a range of one device's events is a
// range of the rowid.
constexpr int kDeviceShift = 40;

int64_t event_id(int device, size_t index) {
  return (static_cast<int64_t>(device) << kDeviceShift) | static_cast<int64_t>(index);
}

std::optional<int64_t> optional_column(const SqliteStatement& row, int column) {
  if (row.column_is_null(column)) return std::nullopt;
  return row.column_int(column);
}

StringId string_id(const SqliteStatement& row, int column) {
  return static_cast<StringId>(row.column_int(column));
}

// A stored frame id beyond FrameId (only in a crafted file) names no frame, rather than another one.
FrameId frame_id(const SqliteStatement& row, int column) {
  const int64_t id = row.column_int(column);
  return id >= 0 && id < int64_t{kNoIndex} ? static_cast<FrameId>(id) : kNoIndex;
}

// The queries here only fit one schema: refuse other versions instead of failing on a column.
void check_version(SqliteDatabase& db) {
  SqliteStatement row = db.prepare("SELECT value FROM meta WHERE key = 'format_version'");
  const std::string version = row.next_row() ? row.column_text(0) : "none";
  if (version != std::to_string(kElementsDbVersion)) {
    throw std::runtime_error(db.path() + ": elements.db format version " + version + ", this build reads " +
                             std::to_string(kElementsDbVersion) + "; convert the snapshot again");
  }
}

// Tables are keyed by dense ids written in order, so a row's id is its index.
void check_dense(int64_t id, size_t expected, const std::string& path, const char* table) {
  if (id < 0 || static_cast<size_t>(id) != expected) {
    throw std::runtime_error(path + ": table " + table + " has a gap at id " + std::to_string(expected));
  }
}

// Each event_contexts row's stream by id, read once: an event names its stream through its
// context, and looking that up here rather than joining in SQLite for every event makes reading
// a device's events (the allocator history's backward pass) about a third cheaper.
class ContextStreams {
 public:
  explicit ContextStreams(SqliteDatabase& db) {
    SqliteStatement rows = db.prepare("SELECT id, stream FROM event_contexts ORDER BY id");
    while (rows.next_row()) {
      const int64_t id = rows.column_int(0);
      const auto stream = static_cast<uint64_t>(rows.column_int(1));
      if (id >= 0 && static_cast<size_t>(id) == dense_.size()) {
        dense_.push_back(stream);
      } else {
        sparse_.emplace(id, stream);  // written densely: only a crafted table gets here
      }
    }
  }
  // 0 for an id no row has, as the join's coalesce(stream, 0) gave.
  uint64_t stream(int64_t context) const {
    if (context >= 0 && static_cast<size_t>(context) < dense_.size())
      return dense_[static_cast<size_t>(context)];
    const auto it = sparse_.find(context);
    return it == sparse_.end() ? 0 : it->second;
  }

 private:
  std::vector<uint64_t> dense_;                   // ids 0, 1, 2, ...
  std::unordered_map<int64_t, uint64_t> sparse_;  // any others
};

// The events columns checked_event() reads, in its order.
constexpr const char* kEventColumns = "e.id - ?1, e.action, e.addr, e.size, e.context, e.stack_id";

}  // namespace

// The by-id lookups run once per frame of every stack shown: prepared once per connection.
struct ElementsDbReader::Statements {
  RowLimits limits;  // what each events or allocation row read is checked against
  SqliteStatement stack, frame, string;
  std::optional<SqliteStatement> events;          // only the allocator's event source reads events
  std::optional<ContextStreams> context_streams;  // for reading events
  explicit Statements(SqliteDatabase& db)
      : limits(db),
        stack(db.prepare("SELECT frame_id FROM stacks WHERE stack_id = ? ORDER BY depth")),
        frame(db.prepare("SELECT name, filename, line, fx_node_op, fx_node_name, fx_node_target, "
                         "fx_original_trace FROM frames WHERE id = ?")),
        string(db.prepare("SELECT text FROM strings WHERE id = ?")) {}
};

ElementsDbReader::ElementsDbReader(const std::string& path)
    : db_(std::make_unique<SqliteDatabase>(path, SqliteDatabase::Mode::ReadOnly)) {
  check_version(*db_);
  statements_ = std::make_unique<Statements>(*db_);
}

ElementsDbReader::~ElementsDbReader() = default;

const std::string& ElementsDbReader::path() const { return db_->path(); }

std::vector<FrameId> ElementsDbReader::stack_frames(StackId stack) const {
  std::vector<FrameId> frames;
  if (stack == 0) return frames;
  SqliteStatement& rows = statements_->stack;
  rows.reset();
  rows.bind(1, int64_t{stack});
  while (rows.next_row()) frames.push_back(frame_id(rows, 0));
  return frames;
}

std::optional<Frame> ElementsDbReader::frame(FrameId id) const {
  SqliteStatement& row = statements_->frame;
  row.reset();
  row.bind(1, int64_t{id});
  if (!row.next_row()) return std::nullopt;
  return Frame{string_id(row, 0), string_id(row, 1), row.column_int(2), string_id(row, 3),
               string_id(row, 4), string_id(row, 5), string_id(row, 6)};
}

std::optional<std::string> ElementsDbReader::string(StringId id) const {
  SqliteStatement& row = statements_->string;
  row.reset();
  row.bind(1, int64_t{id});
  if (!row.next_row()) return std::nullopt;
  return row.column_text(0);
}

StackTables ElementsDbReader::stack_tables() const {
  StackTables tables;
  SqliteStatement strings = db_->prepare("SELECT id, text FROM strings ORDER BY id");
  while (strings.next_row()) {
    check_dense(strings.column_int(0), tables.strings.size(), path(), "strings");
    tables.strings.push_back(strings.column_text(1));
  }
  SqliteStatement frames = db_->prepare(
      "SELECT id, name, filename, line, fx_node_op, fx_node_name, fx_node_target, fx_original_trace "
      "FROM frames ORDER BY id");
  while (frames.next_row()) {
    check_dense(frames.column_int(0), tables.frames.size(), path(), "frames");
    tables.frames.push_back({string_id(frames, 1), string_id(frames, 2), frames.column_int(3),
                             string_id(frames, 4), string_id(frames, 5), string_id(frames, 6),
                             string_id(frames, 7)});
  }
  std::vector<uint64_t>& begin = tables.stack_begin;
  std::vector<FrameId>& stack_frames = tables.stack_frames;
  begin.assign(1, 0);
  SqliteStatement rows = db_->prepare("SELECT stack_id, frame_id FROM stacks ORDER BY stack_id, depth");
  while (rows.next_row()) {
    const int64_t stack = rows.column_int(0);
    if (stack < 0 || static_cast<uint64_t>(stack) + 2 < begin.size()) {
      throw std::runtime_error(path() + ": stacks table out of order");
    }
    // Every stack but the empty one (id 0) has rows, so ids never run ahead of the rows read: a
    // crafted id of 2^40 is an error, not an attempt to allocate a range for every id below it.
    if (static_cast<uint64_t>(stack) > stack_frames.size() + 1) {
      throw std::runtime_error(path() + ": stacks table has a gap before stack " + std::to_string(stack));
    }
    // Stacks without rows (the empty stack) get empty ranges.
    while (begin.size() < static_cast<size_t>(stack) + 2) begin.push_back(stack_frames.size());
    stack_frames.push_back(frame_id(rows, 1));
    begin.back() = stack_frames.size();
  }
  return tables;
}

std::optional<AllocationRow> ElementsDbReader::allocation(int device, TimelineKind kind,
                                                          uint32_t elem) const {
  SqliteStatement row = db_->prepare(kind == TimelineKind::Blocks ? kBlockQuery : kSegmentQuery);
  row.bind(1, int64_t{device});
  row.bind(2, int64_t{elem});
  if (!row.next_row()) return std::nullopt;
  statements_->limits.check_allocation(kind == TimelineKind::Segments, row.column_int(1),
                                       optional_column(row, 4), optional_column(row, 5), row.column_int(10),
                                       row.column_int(16));
  AllocationRow result;
  result.address = static_cast<uint64_t>(row.column_int(0));
  result.size = static_cast<uint64_t>(row.column_int(1));
  if (!row.column_is_null(2)) result.requested_size = static_cast<uint64_t>(row.column_int(2));
  result.stream = static_cast<uint64_t>(row.column_int(3));
  result.alloc_event = optional_column(row, 4);
  result.free_event = optional_column(row, 5);
  result.alloc_time_us = optional_column(row, 6);
  result.free_time_us = optional_column(row, 7);
  result.total_after_alloc = static_cast<uint64_t>(row.column_int(8));
  result.origin = row.column_int(9);
  result.stack_id = row.column_int(10);
  result.compile_context = row.column_text(11);
  result.user_metadata = row.column_text(12);
  if (!row.column_is_null(13)) result.forward_frames = row.column_text(13);
  if (!row.column_is_null(14) && !row.column_is_null(15)) {
    result.pool_id = std::array<int64_t, 2>{row.column_int(14), row.column_int(15)};
  }
  return result;
}

namespace {

// The annotate events (raw action "annotate", kept in event_extras) as `x`, with their event row
// `e` and its context `c`. Callers add the device filter on x.device.
constexpr const char* kAnnotateEvents =
    "FROM event_extras x JOIN strings r ON r.id = x.raw_action AND r.text = 'annotate' "
    "JOIN events e ON e.id = (x.device << 40) + x.idx LEFT JOIN event_contexts c ON c.id = e.context ";

}  // namespace

std::vector<AnnotateEventRow> ElementsDbReader::annotate_events(int device) const {
  SqliteStatement rows =
      db_->prepare("SELECT x.idx, e.addr, coalesce(m.text, '') " + std::string(kAnnotateEvents) +
                   "LEFT JOIN strings m ON m.id = c.user_metadata WHERE x.device = ?1 ORDER BY x.idx");
  rows.bind(1, int64_t{device});
  std::vector<AnnotateEventRow> events;
  while (rows.next_row()) {
    events.push_back({rows.column_int(0), static_cast<uint64_t>(rows.column_int(1)), rows.column_text(2)});
  }
  return events;
}

std::vector<std::pair<int64_t, std::string>> ElementsDbReader::forward_frames_events(int device) const {
  SqliteStatement rows = db_->prepare(
      "SELECT x.idx, s.text FROM event_extras x JOIN strings s ON s.id = x.forward_frames "
      "WHERE x.device = ?1 AND x.forward_frames != 0 ORDER BY x.idx");
  rows.bind(1, int64_t{device});
  std::vector<std::pair<int64_t, std::string>> events;
  while (rows.next_row()) events.emplace_back(rows.column_int(0), rows.column_text(1));
  return events;
}

std::vector<MemoryNoteRow> ElementsDbReader::memory_notes(int device, uint64_t address, int64_t after_event,
                                                          int64_t before_event) const {
  SqliteStatement rows =
      db_->prepare("SELECT x.idx, d.first_time_us + e.dt_us, coalesce(m.text, ''), e.stack_id " +
                   std::string(kAnnotateEvents) +
                   "LEFT JOIN devices d ON d.device = x.device LEFT JOIN strings m ON m.id = c.user_metadata "
                   "WHERE x.device = ?1 AND x.idx > ?3 AND x.idx < ?4 AND e.addr = ?2 ORDER BY x.idx");
  rows.bind(1, int64_t{device});
  rows.bind(2, static_cast<int64_t>(address));
  rows.bind(3, after_event);
  rows.bind(4, before_event);
  std::vector<MemoryNoteRow> notes;
  while (rows.next_row()) {
    notes.push_back({rows.column_int(0), optional_column(rows, 1), rows.column_text(2), rows.column_int(3)});
  }
  return notes;
}

namespace {

// The ids of the strings containing ?2 (lower-cased by the caller), as the CTE `hits`: a handful,
// found before any pass over events.
constexpr const char* kMatchingStrings =
    "WITH hits(id) AS (SELECT id FROM strings WHERE id != 0 AND instr(lower(text), ?2) > 0) ";

std::string ascii_lowercase(std::string_view text) {
  std::string lowered(text);
  for (char& c : lowered) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return lowered;
}

}  // namespace

std::vector<AddressAtEvent> ElementsDbReader::notes_with_metadata(int device, std::string_view text) const {
  const std::string lowered = ascii_lowercase(text);
  SqliteStatement rows = db_->prepare(std::string(kMatchingStrings) + "SELECT e.addr, x.idx " +
                                      kAnnotateEvents + "WHERE x.device = ?1 AND c.user_metadata IN hits");
  rows.bind(1, int64_t{device});
  rows.bind(2, std::string_view(lowered));
  std::vector<AddressAtEvent> notes;
  while (rows.next_row()) notes.push_back({static_cast<uint64_t>(rows.column_int(0)), rows.column_int(1)});
  return notes;
}

std::vector<int64_t> ElementsDbReader::events_with_metadata(int device, std::string_view text) const {
  const std::string lowered = ascii_lowercase(text);
  // The matching strings and the contexts holding them first, then one pass over the device's
  // events by rowid.
  SqliteStatement rows = db_->prepare(
      std::string(kMatchingStrings) +
      "SELECT e.id - (?1 << 40) FROM events e "
      "WHERE e.id >= (?1 << 40) AND e.id < ((?1 + 1) << 40) AND e.context IN "
      "(SELECT id FROM event_contexts WHERE user_metadata IN hits OR compile_context IN hits) ORDER BY e.id");
  rows.bind(1, int64_t{device});
  rows.bind(2, std::string_view(lowered));
  std::vector<int64_t> events;
  while (rows.next_row()) events.push_back(rows.column_int(0));
  return events;
}

size_t ElementsDbReader::event_count(int device) const {
  SqliteStatement count = db_->prepare("SELECT events FROM devices WHERE device = ?1");
  count.bind(1, device);
  return count.next_row() ? static_cast<size_t>(count.column_int(0)) : 0;
}

// An events row (kEventColumns: index, action, addr, size, context, stack_id) whose values are in
// range, with its context's stream.
EventRow ElementsDbReader::checked_event(const SqliteStatement& row) const {
  const int64_t context = row.column_int(4);
  statements_->limits.check_event(row.column_int(3), row.column_int(5), context);
  if (!statements_->context_streams) statements_->context_streams.emplace(*db_);
  return {row.column_int(0),
          row.column_int(1),
          static_cast<uint64_t>(row.column_int(2)),
          static_cast<uint64_t>(row.column_int(3)),
          statements_->context_streams->stream(context),
          static_cast<StackId>(row.column_int(5))};
}

void ElementsDbReader::read_events(int device, size_t begin, size_t end, std::vector<EventRow>& out) const {
  if (!statements_->events) {
    statements_->events.emplace(
        db_->prepare(std::string("SELECT ") + kEventColumns +
                     " FROM events e WHERE e.id >= ?1 + ?2 AND e.id < ?1 + ?3 ORDER BY e.id"));
  }
  SqliteStatement& range = *statements_->events;
  range.reset();
  range.bind(1, event_id(device, 0));
  range.bind(2, static_cast<int64_t>(begin));
  range.bind(3, static_cast<int64_t>(end));
  out.clear();
  while (range.next_row()) out.push_back(checked_event(range));
}

std::vector<EventRow> ElementsDbReader::segment_events(int device) const {
  SqliteStatement rows = db_->prepare(
      std::string("SELECT ") + kEventColumns +
      " FROM events e WHERE e.id >= ?1 AND e.id < ?2 AND e.action IN (?3, ?4, ?5, ?6) ORDER BY e.id");
  rows.bind(1, event_id(device, 0));
  rows.bind(2, event_id(device + 1, 0));
  int index = 3;
  for (Action action :
       {Action::SegmentAlloc, Action::SegmentFree, Action::SegmentMap, Action::SegmentUnmap}) {
    rows.bind(index++, static_cast<int64_t>(action));
  }
  std::vector<EventRow> events;
  while (rows.next_row()) events.push_back(checked_event(rows));
  return events;
}

std::vector<std::pair<int64_t, std::array<int64_t, 2>>> ElementsDbReader::event_pools(int device) const {
  SqliteStatement rows = db_->prepare(
      "SELECT idx, pool_id_0, pool_id_1 FROM event_extras "
      "WHERE device = ?1 AND pool_id_0 IS NOT NULL AND pool_id_1 IS NOT NULL ORDER BY idx");
  rows.bind(1, int64_t{device});
  std::vector<std::pair<int64_t, std::array<int64_t, 2>>> pools;
  while (rows.next_row()) {
    pools.push_back({rows.column_int(0), {rows.column_int(1), rows.column_int(2)}});
  }
  return pools;
}

std::vector<uint64_t> ElementsDbReader::allocation_streams(int device,
                                                           const std::vector<uint32_t>& elems) const {
  SqliteStatement row = db_->prepare("SELECT stream FROM allocation_rows WHERE id = (?1 << 40) | ?2");
  std::vector<uint64_t> streams;
  streams.reserve(elems.size());
  for (uint32_t elem : elems) {
    row.reset();
    row.bind(1, int64_t{device});
    row.bind(2, int64_t{elem});
    streams.push_back(row.next_row() ? static_cast<uint64_t>(row.column_int(0)) : 0);
  }
  return streams;
}

std::vector<SegmentRow> ElementsDbReader::final_segments(int device) const {
  SqliteStatement rows = db_->prepare(
      "SELECT address, total_size, stream, stack_id, pool_id_0, pool_id_1 FROM segments WHERE device = ?1");
  rows.bind(1, device);
  std::vector<SegmentRow> segments;
  while (rows.next_row()) {
    segments.push_back({static_cast<uint64_t>(rows.column_int(0)),
                        static_cast<uint64_t>(rows.column_int(1)),
                        static_cast<uint64_t>(rows.column_int(2)),
                        static_cast<StackId>(rows.column_int(3)),
                        {rows.column_int(4), rows.column_int(5)}});
  }
  return segments;
}

std::vector<ReservedStep> ElementsDbReader::reserved_steps(int device) const {
  SqliteStatement rows =
      db_->prepare("SELECT idx, reserved FROM reserved_steps WHERE device = ?1 ORDER BY idx");
  rows.bind(1, device);
  std::vector<ReservedStep> steps;
  while (rows.next_row()) {
    const int64_t event = rows.column_int(0), reserved = rows.column_int(1);
    if (event < -1 || reserved < 0 || (steps.empty() && event != -1))
      throw std::runtime_error(path() + ": reserved_steps: a bad row for device " + std::to_string(device));
    steps.push_back({event, static_cast<uint64_t>(reserved)});
  }
  return steps;
}

std::vector<LiveBlockRow> ElementsDbReader::final_live_blocks(int device) const {
  SqliteStatement rows = db_->prepare(
      "SELECT b.address, b.size, b.requested_size, b.stack_id, b.state = 'active_pending_free' "
      "FROM blocks b JOIN segments s ON s.id = b.segment_id WHERE s.device = ?1 "
      "AND b.state IN ('active_allocated', 'active_pending_free')");
  rows.bind(1, device);
  std::vector<LiveBlockRow> blocks;
  while (rows.next_row()) {
    blocks.push_back({static_cast<uint64_t>(rows.column_int(0)), static_cast<uint64_t>(rows.column_int(1)),
                      static_cast<uint64_t>(rows.column_int(2)), static_cast<StackId>(rows.column_int(3)),
                      rows.column_int(4) != 0});
  }
  return blocks;
}

std::vector<AnnotationRow> ElementsDbReader::annotations() const {
  SqliteStatement rows = db_->prepare("SELECT stage, name, device, time_us FROM annotations ORDER BY id");
  std::vector<AnnotationRow> records;
  while (rows.next_row()) {
    records.push_back({rows.column_text(0), rows.column_text(1), rows.column_int(2),
                       rows.column_is_null(3) ? kNoTime : rows.column_int(3)});
  }
  return records;
}

std::vector<std::pair<std::string, std::string>> ElementsDbReader::allocator_settings() const {
  SqliteStatement rows = db_->prepare("SELECT key, value FROM allocator_settings");
  std::vector<std::pair<std::string, std::string>> settings;
  while (rows.next_row()) settings.emplace_back(rows.column_text(0), rows.column_text(1));
  return settings;
}

ReservedSeries read_reserved_series(const ElementsDbReader& db, int device) {
  std::vector<ReservedStep> steps = db.reserved_steps(device);
  if (steps.empty()) return {};
  const uint64_t initial = steps.front().reserved;
  steps.erase(steps.begin());
  return ReservedSeries(initial, std::move(steps));
}

}  // namespace snapscope
