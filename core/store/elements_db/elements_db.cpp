#include "core/store/elements_db/elements_db.h"

#include <filesystem>
#include <string>
#include <vector>

#include "core/store/elements_db/elements_db_events.h"
#include "core/store/elements_db/elements_db_schema.h"
#include "core/store/elements_db/elements_db_tables.h"
#include "core/store/elements_db/rowid_table_pages.h"

namespace snapscope {
namespace {

constexpr uint32_t kPageSize = 16384;

// 16 MiB: appends in key order need little cache (see add_layouts()), and every page the cache
// holds is a fresh allocation the kernel has to fault in and zero.
constexpr const char* kBulkBuildCacheSize = "PRAGMA cache_size = -16384;";
// 128 MiB: the segment_allocations index is maintained per row (see kElementsDbLayoutIndexes),
// with inserts in address order, and must stay in the cache.
constexpr const char* kIndexedInsertCacheSize = "PRAGMA cache_size = -131072;";

// The file is built from scratch and is worthless if the build fails (the caller discards
// the whole output directory), so durability is traded for speed while it is written.
void configure_for_bulk_build(SqliteDatabase& db) {
  db.exec("PRAGMA page_size = " + std::to_string(kPageSize) + ";");
  db.exec(
      "PRAGMA journal_mode = OFF;"
      "PRAGMA synchronous = OFF;"
      "PRAGMA locking_mode = EXCLUSIVE;"
      "PRAGMA temp_store = MEMORY;");
  db.exec(kBulkBuildCacheSize);
}

void write_meta(SqliteDatabase& db, const Snapshot& snapshot, std::span<const int> devices) {
  std::string device_list;
  for (const int device : devices) device_list += (device_list.empty() ? "" : ",") + std::to_string(device);
  const std::vector<std::pair<std::string, std::string>> rows = {
      {"format", "snapscope-elements"},
      {"format_version", std::to_string(kElementsDbVersion)},
      {"source_file", snapshot.source_path},
      {"source_bytes", std::to_string(snapshot.source_bytes)},
      {"devices", device_list},
  };
  SqliteStatement insert = db.prepare("INSERT INTO meta VALUES (?, ?)");
  for (const auto& [key, value] : rows) {
    insert.bind(1, key);
    insert.bind(2, value);
    insert.run();
  }
}

uint32_t root_page(SqliteDatabase& db, const std::string& table) {
  SqliteStatement root = db.prepare("SELECT rootpage FROM sqlite_schema WHERE type = 'table' AND name = ?");
  root.bind(1, table);
  if (!root.next_row()) throw std::runtime_error(table + ": not in the schema");
  return static_cast<uint32_t>(root.column_int(0));
}

// What ANALYZE records for a table without an index: its row count. It ran while the tables
// written as pages were still empty in SQLite's eyes.
void write_row_count_statistic(SqliteDatabase& db, const RowidTablePages& table) {
  SqliteStatement drop = db.prepare("DELETE FROM sqlite_stat1 WHERE tbl = ?");
  drop.bind(1, table.table());
  drop.run();
  if (table.rows() == 0) return;  // as ANALYZE leaves an empty table
  SqliteStatement insert = db.prepare("INSERT INTO sqlite_stat1 (tbl, idx, stat) VALUES (?, NULL, ?)");
  insert.bind(1, table.table());
  insert.bind(2, std::to_string(table.rows()));
  insert.run();
}

}  // namespace

ElementsDbBuilder::ElementsDbBuilder(const std::string& path, StageLog* log)
    : path_(path), log_(log), contexts_(std::make_unique<elements_db::EventContexts>()) {
  if (std::filesystem::exists(path)) throw std::runtime_error(path + ": already exists");
  events_ = std::make_unique<RowidTablePages>(path, "events", elements_db::kEventColumns, kPageSize);
  allocation_rows_ = std::make_unique<RowidTablePages>(path, "allocation_rows", 12, kPageSize);
  db_ = std::make_unique<SqliteDatabase>(path, SqliteDatabase::Mode::Create);
  configure_for_bulk_build(*db_);
  db_->exec(kElementsDbTables);
  db_->exec("BEGIN");
}

ElementsDbBuilder::~ElementsDbBuilder() = default;

void ElementsDbBuilder::add_snapshot(const Snapshot& snapshot, std::span<const int> devices) {
  SqliteDatabase& db = *db_;
  {
    const StageTimer timer(log_, "db: snapshot tables");
    write_meta(db, snapshot, devices);
    elements_db::write_lookup_tables(db);
    elements_db::write_strings(db, snapshot.strings);
    elements_db::write_frames(db, snapshot.frames);
    elements_db::write_stacks(db, snapshot.stacks);
    elements_db::write_segments_and_blocks(db, snapshot, devices);
    elements_db::write_annotations(db, snapshot, devices);
    elements_db::write_allocator_settings(db, *snapshot.allocator_settings);
  }
  const StageTimer timer(log_, "db: events");
  const int streamed_device = streamed_ && streamed_->adopt(snapshot, devices) ? streamed_->device() : -1;
  streamed_.reset();
  for (const int device : devices) {
    if (device == streamed_device) {
      elements_db::write_event_extras(db, snapshot, device);
    } else {
      elements_db::write_events(db, *events_, snapshot, device, *contexts_);
    }
  }
  contexts_->write(db);
}

void ElementsDbBuilder::stream_events(int device, const EventBatch& batch) {
  if (!streamed_) streamed_ = std::make_unique<elements_db::StreamedEvents>(*events_, device, *contexts_);
  streamed_->add(batch);
}

void ElementsDbBuilder::add_layouts(const Snapshot& snapshot, std::span<const DeviceTimelines> devices) {
  const StageTimer timer(log_, "db: allocations");
  db_->exec(kElementsDbLayoutIndexes);
  for (const DeviceTimelines& device : devices) {
    elements_db::write_device_row(*db_, device);
    elements_db::write_reserved_steps(*db_, device);
    elements_db::write_allocations(*allocation_rows_, snapshot, device);
    // The caller has freed the trace events by now (convert.cpp), which leaves room for this.
    db_->exec(kIndexedInsertCacheSize);
    elements_db::write_segment_allocations(*db_, snapshot, device);
    db_->exec(kBulkBuildCacheSize);
  }
}

void ElementsDbBuilder::commit() {
  if (committed_) return;
  const StageTimer timer(log_, "db: commit");
  db_->exec("COMMIT");
  committed_ = true;
}

void ElementsDbBuilder::finish() {
  commit();
  RowidTablePages* const paged[] = {events_.get(), allocation_rows_.get()};
  std::vector<uint32_t> roots;
  {
    const StageTimer timer(log_, "db: indexes, analyze");
    db_->exec(kElementsDbIndexes);
    // Sampled statistics (cheap even for millions of rows) so the planner knows that `device`
    // alone selects little and picks e.g. segment_allocations_by_addr over the primary key.
    db_->exec("PRAGMA analysis_limit = 1000; ANALYZE;");
    for (RowidTablePages* table : paged) {
      write_row_count_statistic(*db_, *table);
      roots.push_back(root_page(*db_, table->table()));
    }
    db_.reset();  // close now, so that errors surface here and not in a destructor
  }
  const StageTimer timer(log_, "db: attach events and allocation_rows");
  attach_rowid_tables(path_, paged, roots);
}

void write_elements_db(const Snapshot& snapshot, std::span<const DeviceTimelines> devices,
                       const std::string& path) {
  std::vector<int> device_ids;
  for (const DeviceTimelines& device : devices) device_ids.push_back(device.stats.device);
  ElementsDbBuilder builder(path);
  builder.add_snapshot(snapshot, device_ids);
  builder.add_layouts(snapshot, devices);
  builder.finish();
}

}  // namespace snapscope
