// Internal to the elements.db writer: one function per group of tables. All run inside the
// single build transaction opened by write_elements_db.
#pragma once

#include <cstdint>
#include <optional>
#include <span>

#include "core/snapshot/model.h"
#include "core/store/elements_db.h"
#include "core/store/sqlite_handle.h"

namespace snapscope::elements_db {

// SQLite integers are signed 64-bit; addresses and sizes above 2^63 wrap (none do in practice).
inline int64_t as_db_int(uint64_t value) { return static_cast<int64_t>(value); }
inline std::optional<int64_t> time_or_null(int64_t time_us) {
  return time_us == kNoTime ? std::nullopt : std::optional<int64_t>(time_us);
}
inline std::optional<int64_t> event_or_null(int64_t event) {
  return event < 0 ? std::nullopt : std::optional<int64_t>(event);
}

void write_lookup_tables(SqliteDatabase& db);
void write_strings(SqliteDatabase& db, const StringTable& strings);
void write_frames(SqliteDatabase& db, const FrameTable& frames);
void write_stacks(SqliteDatabase& db, const StackTable& stacks);
void write_segments_and_blocks(SqliteDatabase& db, const Snapshot& snapshot, std::span<const int> devices);
void write_annotations(SqliteDatabase& db, const Snapshot& snapshot, std::span<const int> devices);
void write_allocator_settings(SqliteDatabase& db, const nlohmann::json& settings);

void write_events(SqliteDatabase& db, const Snapshot& snapshot, const DeviceTimelines& device);
void write_allocations(SqliteDatabase& db, const Snapshot& snapshot, const DeviceTimelines& device);
void write_segment_allocations(SqliteDatabase& db, const Snapshot& snapshot, const DeviceTimelines& device);
void write_device_row(SqliteDatabase& db, const DeviceTimelines& device);

}  // namespace snapscope::elements_db
