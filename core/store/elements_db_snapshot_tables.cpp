// The tables that mirror the snapshot itself: strings, frames, stacks, segments, blocks,
// annotations and allocator settings.
#include <algorithm>

#include "core/store/elements_db_tables.h"
#include "core/timeline/replay_input.h"

namespace snapscope::elements_db {
namespace {

bool contains(std::span<const int> devices, int64_t device) {
  return std::find(devices.begin(), devices.end(), device) != devices.end();
}

}  // namespace

void write_lookup_tables(SqliteDatabase& db) {
  SqliteStatement action = db.prepare("INSERT INTO action_names VALUES (?, ?)");
  for (int code = 0; code <= static_cast<int>(Action::Unknown); ++code) {
    action.bind(1, int64_t{code});
    action.bind(2, action_name(static_cast<Action>(code)));
    action.run();
  }
  SqliteStatement origin = db.prepare("INSERT INTO origin_names VALUES (?, ?)");
  for (int code = 0; code <= static_cast<int>(Origin::SnapshotSegment); ++code) {
    origin.bind(1, int64_t{code});
    origin.bind(2, origin_name(static_cast<Origin>(code)));
    origin.run();
  }
}

void write_strings(SqliteDatabase& db, const StringTable& strings) {
  SqliteStatement insert = db.prepare("INSERT INTO strings VALUES (?, ?)");
  for (StringId id = 0; id < strings.size(); ++id) {
    insert.bind(1, int64_t{id});
    insert.bind(2, strings.view(id));
    insert.run();
  }
}

void write_frames(SqliteDatabase& db, const FrameTable& frames) {
  SqliteStatement insert = db.prepare("INSERT INTO frames VALUES (?, ?, ?, ?, ?, ?, ?, ?)");
  for (FrameId id = 0; id < frames.size(); ++id) {
    const Frame& frame = frames.get(id);
    insert.bind(1, int64_t{id});
    insert.bind(2, int64_t{frame.name});
    insert.bind(3, int64_t{frame.filename});
    insert.bind(4, frame.line);
    insert.bind(5, int64_t{frame.fx_node_op});
    insert.bind(6, int64_t{frame.fx_node_name});
    insert.bind(7, int64_t{frame.fx_node_target});
    insert.bind(8, int64_t{frame.fx_original_trace});
    insert.run();
  }
}

void write_stacks(SqliteDatabase& db, const StackTable& stacks) {
  SqliteStatement insert = db.prepare("INSERT INTO stacks VALUES (?, ?, ?)");
  for (StackId id = 0; id < stacks.size(); ++id) {
    const std::span<const FrameId> frames = stacks.frames(id);
    for (size_t depth = 0; depth < frames.size(); ++depth) {
      insert.bind(1, int64_t{id});
      insert.bind(2, static_cast<int64_t>(depth));
      insert.bind(3, int64_t{frames[depth]});
      insert.run();
    }
  }
}

void write_segments_and_blocks(SqliteDatabase& db, const Snapshot& snapshot, std::span<const int> devices) {
  SqliteStatement segment_row =
      db.prepare("INSERT INTO segments VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
  SqliteStatement block_row = db.prepare("INSERT INTO blocks VALUES (?, ?, ?, ?, ?, ?, ?)");
  for (size_t id = 0; id < snapshot.segments.size(); ++id) {
    const Segment& segment = snapshot.segments[id];
    if (!contains(devices, segment.device)) continue;
    segment_row.bind(1, static_cast<int64_t>(id));
    segment_row.bind(2, segment.device);
    segment_row.bind(3, as_db_int(segment.address));
    segment_row.bind(4, as_db_int(segment.total_size));
    segment_row.bind(5, as_db_int(segment.allocated_size));
    segment_row.bind(6, as_db_int(segment.active_size));
    segment_row.bind(7, as_db_int(segment.requested_size));
    segment_row.bind(8, as_db_int(segment.stream));
    segment_row.bind(9, snapshot.strings.view(segment.segment_type));
    segment_row.bind(10, segment.pool_id[0]);
    segment_row.bind(11, segment.pool_id[1]);
    segment_row.bind(12, int64_t{segment.is_expandable});
    segment_row.bind(13, int64_t{segment.stack});
    segment_row.run();
    for (uint32_t b = segment.first_block; b < segment.first_block + segment.block_count; ++b) {
      const Block& block = snapshot.blocks[b];
      block_row.bind(1, int64_t{b});
      block_row.bind(2, static_cast<int64_t>(id));
      block_row.bind(3, as_db_int(block.address));
      block_row.bind(4, as_db_int(block.size));
      block_row.bind(5, as_db_int(block.requested_size));
      block_row.bind(6, snapshot.strings.view(block.raw_state));
      block_row.bind(7, int64_t{block.stack});
      block_row.run();
    }
  }
}

void write_annotations(SqliteDatabase& db, const Snapshot& snapshot, std::span<const int> devices) {
  SqliteStatement insert = db.prepare("INSERT INTO annotations VALUES (?, ?, ?, ?, ?)");
  for (size_t id = 0; id < snapshot.annotations.size(); ++id) {
    const Annotation& annotation = snapshot.annotations[id];
    if (!contains(devices, annotation.device)) continue;
    insert.bind(1, static_cast<int64_t>(id));
    insert.bind(2, annotation.device);
    insert.bind(3, snapshot.strings.view(annotation.stage));
    insert.bind(4, snapshot.strings.view(annotation.name));
    insert.bind_optional(5, time_or_null(annotation.time_us));
    insert.run();
  }
}

void write_allocator_settings(SqliteDatabase& db, const nlohmann::json& settings) {
  if (!settings.is_object()) return;
  SqliteStatement insert = db.prepare("INSERT INTO allocator_settings VALUES (?, ?)");
  for (const auto& [key, value] : settings.items()) {
    insert.bind(1, key);
    insert.bind(2, value.dump());  // JSON text: settings are scalars, lists or small dicts
    insert.run();
  }
}

}  // namespace snapscope::elements_db
