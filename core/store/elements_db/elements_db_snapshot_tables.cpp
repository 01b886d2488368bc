// The tables that mirror the snapshot itself: strings, frames, stacks, events, segments,
// blocks, annotations and allocator settings.
#include <algorithm>

#include <nlohmann/json.hpp>

#include "core/store/elements_db/elements_db_tables.h"
#include "core/store/elements_db/sqlite_batch_insert.h"
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
  SqliteBatchInsert insert(db, "strings", 2);
  for (StringId id = 0; id < strings.size(); ++id) {
    insert.add(id).add_text(strings.view(id));
    insert.end_row();
  }
  insert.flush();
}

void write_frames(SqliteDatabase& db, const FrameTable& frames) {
  SqliteBatchInsert insert(db, "frames", 8);
  for (FrameId id = 0; id < frames.size(); ++id) {
    const Frame& frame = frames.get(id);
    insert.add(id).add(frame.name).add(frame.filename).add(frame.line);
    insert.add(frame.fx_node_op)
        .add(frame.fx_node_name)
        .add(frame.fx_node_target)
        .add(frame.fx_original_trace);
    insert.end_row();
  }
  insert.flush();
}

void write_stacks(SqliteDatabase& db, const StackTable& stacks) {
  SqliteBatchInsert insert(db, "stacks", 3);
  for (StackId id = 0; id < stacks.size(); ++id) {
    const std::span<const FrameId> frames = stacks.frames(id);
    for (size_t depth = 0; depth < frames.size(); ++depth) {
      insert.add(id).add(static_cast<uint64_t>(depth)).add(frames[depth]);
      insert.end_row();
    }
  }
  insert.flush();
}

void write_segments_and_blocks(SqliteDatabase& db, const Snapshot& snapshot, std::span<const int> devices) {
  SqliteBatchInsert segment_row(db, "segments", 13);
  SqliteBatchInsert block_row(db, "blocks", 7);
  for (size_t id = 0; id < snapshot.segments.size(); ++id) {
    const Segment& segment = snapshot.segments[id];
    if (!contains(devices, segment.device)) continue;
    segment_row.add(static_cast<uint64_t>(id))
        .add(segment.device)
        .add(segment.address)
        .add(segment.total_size);
    segment_row.add(segment.allocated_size).add(segment.active_size).add(segment.requested_size);
    segment_row.add(segment.stream).add_text(snapshot.strings.view(segment.segment_type));
    segment_row.add(segment.pool_id[0])
        .add(segment.pool_id[1])
        .add(int{segment.is_expandable})
        .add(segment.stack);
    segment_row.end_row();
    for (uint32_t b = segment.first_block; b < segment.first_block + segment.block_count; ++b) {
      const Block& block = snapshot.blocks[b];
      block_row.add(b).add(static_cast<uint64_t>(id)).add(block.address).add(block.size);
      block_row.add(block.requested_size).add_text(snapshot.strings.view(block.raw_state)).add(block.stack);
      block_row.end_row();
    }
  }
  segment_row.flush();
  block_row.flush();
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
