// Internal to the elements.db writer: one function per group of tables. All run inside the
// single build transaction opened by ElementsDbBuilder.
#pragma once

#include <cstdint>
#include <optional>
#include <span>

#include "core/snapshot/model.h"
#include "core/store/elements_db/elements_db.h"
#include "core/store/elements_db/rowid_table_pages.h"
#include "core/store/elements_db/sqlite_handle.h"
#include "core/store/elements_db/sqlite_row_feed.h"

namespace snapscope::elements_db {

inline std::optional<int64_t> time_or_null(int64_t time_us) {
  return time_us == kNoTime ? std::nullopt : std::optional<int64_t>(time_us);
}
inline std::optional<int64_t> event_or_null(int64_t event) {
  return event < 0 ? std::nullopt : std::optional<int64_t>(event);
}
// events.id and allocations.id: device and event or element index in one rowid.
inline constexpr int kEventKeyShift = 40;
inline int64_t event_key(int64_t device, int64_t idx) { return (device << kEventKeyShift) | idx; }

inline std::optional<int64_t> index_or_null(uint32_t index) {
  return index == kNoIndex ? std::nullopt : std::optional<int64_t>(index);
}

// Snapshot tables (elements_db_snapshot_tables.cpp).
void write_lookup_tables(SqliteDatabase& db);
void write_strings(SqliteDatabase& db, const StringTable& strings);
void write_frames(SqliteDatabase& db, const FrameTable& frames);
void write_stacks(SqliteDatabase& db, const StackTable& stacks);
void write_segments_and_blocks(SqliteDatabase& db, const Snapshot& snapshot, std::span<const int> devices);
void write_annotations(SqliteDatabase& db, const Snapshot& snapshot, std::span<const int> devices);
void write_allocator_settings(SqliteDatabase& db, const nlohmann::json& settings);

// Layout tables (elements_db_layout_tables.cpp).
void write_allocations(RowidTablePages& pages, const Snapshot& snapshot, const DeviceTimelines& device);
void write_segment_allocations(SqliteDatabase& db, const Snapshot& snapshot, const DeviceTimelines& device);
void write_device_row(SqliteDatabase& db, const DeviceTimelines& device);
void write_reserved_steps(SqliteDatabase& db, const DeviceTimelines& device);

}  // namespace snapscope::elements_db
