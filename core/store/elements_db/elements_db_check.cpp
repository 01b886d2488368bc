// elements.db checks against the writer's own constants (kElementsDbVersion, the schema DDL).
#include "core/store/elements_db/elements_db_check.h"

#include <sqlite3.h>

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <map>
#include <stdexcept>
#include <tuple>
#include <vector>

#include "core/snapshot/snapshot_reader.h"
#include "core/store/elements_db/elements_db.h"
#include "core/store/elements_db/elements_db_schema.h"
#include "core/store/elements_db/row_limits.h"
#include "core/store/elements_db/sqlite_handle.h"

namespace snapscope {
namespace {

// (type, name) -> (table, sql) of every schema object but SQLite's own (sqlite_stat1 from
// ANALYZE, automatic indexes).
using SchemaObjects = std::map<std::pair<std::string, std::string>, std::pair<std::string, std::string>>;

SchemaObjects schema_objects(SqliteDatabase& db) {
  SchemaObjects objects;
  SqliteStatement query = db.prepare(
      "SELECT type, name, tbl_name, sql FROM sqlite_schema WHERE name NOT LIKE 'sqlite\\_%' ESCAPE '\\'");
  while (query.next_row()) {
    objects[{query.column_text(0), query.column_text(1)}] = {query.column_text(2), query.column_text(3)};
  }
  return objects;
}

// The schema the writer creates, built in memory from the same DDL constants.
const SchemaObjects& expected_schema() {
  static const SchemaObjects schema = [] {
    SqliteDatabase db(":memory:", SqliteDatabase::Mode::Create);
    db.exec(kElementsDbTables);
    db.exec(kElementsDbLayoutIndexes);
    db.exec(kElementsDbIndexes);
    return schema_objects(db);
  }();
  return schema;
}

std::string meta_value(SqliteDatabase& db, const char* key) {
  SqliteStatement query = db.prepare("SELECT value FROM meta WHERE key = ?");
  query.bind(1, std::string_view(key));
  return query.next_row() ? query.column_text(0) : std::string();
}

int64_t scalar(SqliteDatabase& db, const char* sql) {
  SqliteStatement query = db.prepare(sql);
  return query.next_row() && !query.column_is_null(0) ? query.column_int(0) : -1;
}

// Referential integrity that is cheap at open (one pass over stacks, no joins): every stack row
// names a frame that exists (frame ids are dense from 0), so no location is shown as ":0 ()".
void verify_stack_frames(SqliteDatabase& db) {
  const int64_t frames = scalar(db, "SELECT count(*) FROM frames");
  const int64_t lowest = scalar(db, "SELECT min(frame_id) FROM stacks");
  const int64_t highest = scalar(db, "SELECT max(frame_id) FROM stacks");
  if (highest >= frames || (highest >= 0 && lowest < 0))
    throw InputError(db.path() + ": stacks: a row points at a frame that does not exist");
}

// Every element of the layout names a stack elements.db holds (0, the empty stack, has no rows).
void verify_layout_stacks(const AllocationsFile& layout, SqliteDatabase& db) {
  uint64_t highest = 0;
  for (const DeviceLayout& device : layout.devices) {
    for (const ReplayInput* input : {&device.blocks, &device.segments}) {
      for (const auto& element : input->elements) highest = std::max<uint64_t>(highest, element.stack);
    }
  }
  const int64_t stacks = scalar(db, "SELECT max(stack_id) FROM stacks");  // -1: none
  if (highest > 0 && static_cast<int64_t>(highest) > stacks) {
    throw InputError(db.path() + ": allocations.json names stack " + std::to_string(highest) +
                     ", which elements.db does not hold");
  }
}

// One row of `columns` aggregates; NULL (an empty table, or only NULLs) reads as nullopt.
std::vector<std::optional<int64_t>> aggregates(SqliteDatabase& db, const char* sql, int columns) {
  SqliteStatement query = db.prepare(sql);
  std::vector<std::optional<int64_t>> row(static_cast<size_t>(columns));
  if (!query.next_row()) return row;
  for (int column = 0; column < columns; ++column) {
    if (!query.column_is_null(column)) row[static_cast<size_t>(column)] = query.column_int(column);
  }
  return row;
}

[[noreturn]] void bad_rows(SqliteDatabase& db, const std::string& what) {
  throw InputError(db.path() + ": " + what);
}

// Ranges inside the tables with a row per segment or per context (small), each one aggregate pass
// with no join (docs/FORMAT.md). The tables with a row per trace entry (events, allocation_rows)
// are checked row by row where they are read (row_limits.h): scanning them at open took 10.4 s
// (7.8 s events, 2.6 s allocation_rows) on a 10M-allocation directory, 3.6x its whole --report.
void verify_segment_rows(SqliteDatabase& db, const RowLimits& limits) {
  const auto row = aggregates(db,
                              "SELECT min(size), min(free_event - alloc_event), min(stack_id), max(stack_id) "
                              "FROM segment_allocations",
                              4);
  if (row[0] && *row[0] < 0) bad_rows(db, "segment_allocations: a negative size");
  if (row[1] && *row[1] < 0) bad_rows(db, "segment_allocations: a segment freed before it is allocated");
  for (const std::optional<int64_t>& stack_id : {row[2], row[3]}) {
    if (stack_id) limits.check_stack_id("segment_allocations", *stack_id);
  }
}

// Strings are shown and searched whole: none may be longer than kMaxTextBytes (docs/FORMAT.md).
constexpr int64_t kMaxTextBytes = int64_t{16} << 20;

void verify_text_lengths(SqliteDatabase& db) {
  static constexpr std::pair<const char*, const char*> kColumns[] = {
      {"strings", "text"},     {"annotations", "stage"},
      {"annotations", "name"}, {"allocator_settings", "value"},
      {"meta", "value"},       {"segments", "segment_type"},
      {"blocks", "state"}};
  for (const auto& [table, column] : kColumns) {
    const std::string sql = std::string("SELECT max(length(CAST(") + column + " AS BLOB))) FROM " + table;
    const int64_t longest = scalar(db, sql.c_str());
    if (longest > kMaxTextBytes) {
      bad_rows(
          db, std::string(table) + ": a text of " + std::to_string(longest) + " bytes (the limit is 16 MiB)");
    }
  }
}

// event_contexts name strings that exist (ids are dense from 0, 0 the empty string).
void verify_context_strings(SqliteDatabase& db) {
  const int64_t last_string = scalar(db, "SELECT max(id) FROM strings");
  const auto row =
      aggregates(db,
                 "SELECT min(min(compile_context, user_metadata)), max(max(compile_context, user_metadata)) "
                 "FROM event_contexts",
                 2);
  if (((row[0] && *row[0] < 0) || (row[1] && *row[1] > last_string)))
    bad_rows(db, "event_contexts: a row points at a string that does not exist");
}

void verify_row_ranges(SqliteDatabase& db) {
  verify_segment_rows(db, RowLimits(db));
  verify_context_strings(db);
  verify_text_lengths(db);
}

void verify_open(SqliteDatabase& db) {
  if (schema_objects(db).count({"table", "meta"}) == 0 || meta_value(db, "format") != "snapscope-elements") {
    throw InputError(db.path() + ": not a snapscope elements.db");
  }
  const std::string version = meta_value(db, "format_version");
  if (version != std::to_string(kElementsDbVersion)) {
    throw InputError(db.path() + ": unsupported elements.db format version '" + version + "' (expected " +
                     std::to_string(kElementsDbVersion) + ")");
  }
  if (schema_objects(db) != expected_schema()) {
    throw InputError(db.path() + ": elements.db schema differs from the one this version writes");
  }
  verify_stack_frames(db);
  verify_row_ranges(db);
}

// Runs `check`, turning SQLite's errors (a damaged or non-database file) into one InputError.
template <typename Check>
void naming_db_errors(const std::string& db_path, Check check) {
  try {
    check();
  } catch (const InputError&) {
    throw;
  } catch (const std::runtime_error& e) {
    const std::string what = e.what();
    throw InputError(what.starts_with(db_path) ? what : db_path + ": " + what);
  }
}

struct DbCounts {
  int64_t block_elements = 0, segment_elements = 0, block_actions = 0, segment_actions = 0;
  bool operator==(const DbCounts&) const = default;
};

// Device numbers are CUDA ordinals; event rowids are device << 40 | index (docs/FORMAT.md).
constexpr int64_t kMaxDevice = 1 << 16;
constexpr int kDeviceShift = 40;

// The readers size their reads by devices.events: it must be one past the device's last event
// id (a rowid lookup, not a count, so opening a 10M-event file stays instant).
void verify_event_count(SqliteDatabase& db, int64_t device, int64_t events) {
  SqliteStatement query = db.prepare("SELECT max(id) FROM events WHERE id >= ?1 AND id < ?2");
  query.bind(1, device << kDeviceShift);
  query.bind(2, (device + 1) << kDeviceShift);
  const bool ok =
      query.next_row() && events >= 0 &&
      (events == 0 ? query.column_is_null(0) : query.column_int(0) == (device << kDeviceShift) + events - 1);
  if (!ok) throw InputError(db.path() + ": devices.events of device " + std::to_string(device) + " is wrong");
}

// devices.allocations and segment_allocations must be the rows the tables hold (rowid and
// primary-key lookups, not counts).
void verify_element_counts(SqliteDatabase& db, int64_t device, int64_t allocations, int64_t segments) {
  SqliteStatement rows = db.prepare("SELECT max(id) FROM allocation_rows WHERE id >= ?1 AND id < ?2");
  rows.bind(1, device << kDeviceShift);
  rows.bind(2, (device + 1) << kDeviceShift);
  const int64_t last_row =
      rows.next_row() && !rows.column_is_null(0) ? rows.column_int(0) - (device << kDeviceShift) : -1;
  SqliteStatement segment_rows = db.prepare("SELECT max(elem) FROM segment_allocations WHERE device = ?1");
  segment_rows.bind(1, device);
  const int64_t last_segment =
      segment_rows.next_row() && !segment_rows.column_is_null(0) ? segment_rows.column_int(0) : -1;
  if (allocations < 0 || last_row != allocations - 1 || segments < 0 || last_segment != segments - 1) {
    throw InputError(db.path() + ": devices: the element counts of device " + std::to_string(device) +
                     " contradict the tables");
  }
}

std::map<int64_t, DbCounts> db_counts(SqliteDatabase& db) {
  std::map<int64_t, DbCounts> counts;
  SqliteStatement query = db.prepare(
      "SELECT device, allocations, segment_allocations, block_actions, segment_actions, events FROM devices");
  while (query.next_row()) {
    const int64_t device = query.column_int(0);
    if (device < 0 || device >= kMaxDevice) {
      throw InputError(db.path() + ": device number " + std::to_string(device) + " out of range");
    }
    verify_event_count(db, device, query.column_int(5));
    verify_element_counts(db, device, query.column_int(1), query.column_int(2));
    counts[device] = {query.column_int(1), query.column_int(2), query.column_int(3), query.column_int(4)};
  }
  return counts;
}

}  // namespace

void verify_elements_db(const std::string& db_path) {
  naming_db_errors(db_path, [&] {
    SqliteDatabase db(db_path, SqliteDatabase::Mode::ReadOnly);
    verify_open(db);
  });
}

std::optional<uint64_t> recorded_source_bytes(const std::string& db_path) {
  try {
    SqliteDatabase db(db_path, SqliteDatabase::Mode::ReadOnly);
    const std::string text = meta_value(db, "source_bytes");
    uint64_t bytes = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), bytes);
    if (text.empty() || error != std::errc() || end != text.data() + text.size()) return std::nullopt;
    return bytes;
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

uint64_t layout_text_bound(const std::string& db_path) {
  uint64_t bound = uint64_t{1} << 20;
  naming_db_errors(db_path, [&] {
    SqliteDatabase db(db_path, SqliteDatabase::Mode::ReadOnly);
    for (const auto& [device, counts] : db_counts(db)) {
      const auto elements = static_cast<uint64_t>(std::max<int64_t>(0, counts.block_elements)) +
                            static_cast<uint64_t>(std::max<int64_t>(0, counts.segment_elements));
      const auto actions = static_cast<uint64_t>(std::max<int64_t>(0, counts.block_actions)) +
                           static_cast<uint64_t>(std::max<int64_t>(0, counts.segment_actions));
      // Counts come from an untrusted file: saturate rather than wrap (a huge count only loosens the bound).
      constexpr uint64_t kCap = uint64_t{1} << 50;
      bound += 4096 + std::min(elements, kCap) * 512 + std::min(actions, kCap) * 64;
    }
  });
  return bound;
}

void verify_layout_matches_db(const AllocationsFile& layout, const std::string& db_path) {
  naming_db_errors(db_path, [&] {
    SqliteDatabase db(db_path, SqliteDatabase::Mode::ReadOnly);
    std::map<int64_t, DbCounts> from_json;
    for (const DeviceLayout& d : layout.devices) {
      from_json[d.device] = {
          static_cast<int64_t>(d.blocks.elements.size()), static_cast<int64_t>(d.segments.elements.size()),
          static_cast<int64_t>(d.blocks.actions.size()), static_cast<int64_t>(d.segments.actions.size())};
    }
    if (db_counts(db) != from_json) {
      throw InputError(db_path + ": devices or element/action counts disagree with allocations.json");
    }
    verify_layout_stacks(layout, db);
  });
}

}  // namespace snapscope
