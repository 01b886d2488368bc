#include "core/store/elements_db/elements_db.h"

#include <filesystem>
#include <string>
#include <vector>

#include "core/store/elements_db/elements_db_events.h"
#include "core/store/elements_db/elements_db_schema.h"
#include "core/store/elements_db/elements_db_tables.h"

namespace snapscope {
namespace {

// 16 MiB: appends in key order need little cache (see add_layouts()), and every page the cache
// holds is a fresh allocation the kernel has to fault in and zero.
constexpr const char* kBulkBuildCacheSize = "PRAGMA cache_size = -16384;";
// 128 MiB: the segment_allocations index is maintained per row (see kElementsDbLayoutIndexes),
// with inserts in address order, and must stay in the cache.
constexpr const char* kIndexedInsertCacheSize = "PRAGMA cache_size = -131072;";

// The file is built from scratch and is worthless if the build fails (the caller discards
// the whole output directory), so durability is traded for speed while it is written.
void configure_for_bulk_build(SqliteDatabase& db) {
  db.exec(
      "PRAGMA page_size = 16384;"
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

}  // namespace

ElementsDbBuilder::ElementsDbBuilder(const std::string& path, StageLog* log)
    : log_(log), contexts_(std::make_unique<elements_db::EventContexts>()) {
  if (std::filesystem::exists(path)) throw std::runtime_error(path + ": already exists");
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
      elements_db::write_events(db, snapshot, device, *contexts_);
    }
  }
  contexts_->write(db);
}

void ElementsDbBuilder::stream_events(int device, const EventBatch& batch) {
  if (!streamed_) streamed_ = std::make_unique<elements_db::StreamedEvents>(*db_, device, *contexts_);
  streamed_->add(batch);
}

void ElementsDbBuilder::add_layouts(const Snapshot& snapshot, std::span<const DeviceTimelines> devices) {
  const StageTimer timer(log_, "db: allocations");
  db_->exec(kElementsDbLayoutIndexes);
  for (const DeviceTimelines& device : devices) {
    elements_db::write_device_row(*db_, device);
    elements_db::write_reserved_steps(*db_, device);
    elements_db::write_allocations(*db_, snapshot, device);  // appended in key order: the small cache
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
  const StageTimer timer(log_, "db: indexes, analyze");
  db_->exec(kElementsDbIndexes);
  // Sampled statistics (cheap even for millions of rows) so the planner knows that `device`
  // alone selects little and picks e.g. segment_allocations_by_addr over the primary key.
  db_->exec("PRAGMA analysis_limit = 1000; ANALYZE;");
  db_.reset();  // close now, so that errors surface here and not in a destructor
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
