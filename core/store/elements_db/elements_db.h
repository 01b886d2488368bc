// elements.db: the SQLite side of a converted snapshot (every event, allocation, frame and
// stack, for ad-hoc queries and the viewer's detail panes). Schema: docs/FORMAT.md.
#pragma once

#include <memory>
#include <span>
#include <string>
#include <vector>

#include "core/snapshot/event_sink.h"
#include "core/snapshot/model.h"
#include "core/store/elements_db/device_stats.h"
#include "core/timeline/reserved_series.h"
#include "core/timeline/timeline.h"
#include "core/util/stage_log.h"

namespace snapscope {

class SqliteDatabase;
class RowidTablePages;
namespace elements_db {
class EventContexts;
class StreamedEvents;
}  // namespace elements_db

// 3: no allocations_by_addr index; 4: nor by alloc_event; 5: allocations keyed by id, device and
// elem computed from it; 6: events' stream, compile_context, user_metadata in event_contexts;
// 7: allocation_rows.stack_index NULL when the views can compute it, free_after for free_event
inline constexpr int kElementsDbVersion = 8;

// A stream for each element of a timeline, as an index into `values`: a snapshot uses a handful
// of streams, and a timeline has millions of elements.
struct ElementStreams {
  std::vector<uint64_t> values;  // the snapshot's streams, then its segments' that no event has
  std::vector<StreamId> ids;     // one per element
  size_t size() const { return ids.size(); }
  uint64_t operator[](size_t elem) const { return values[ids[elem]]; }
};

// One device's replayed timelines and headline numbers, as the db writer needs them.
struct DeviceTimelines {
  const Timeline* blocks = nullptr;
  const Timeline* segments = nullptr;
  DeviceStats stats;
  // Optional element_streams() of both timelines, for a caller that frees the trace events
  // before the layout tables are written; null: looked up in the snapshot's events.
  const ElementStreams* block_streams = nullptr;
  const ElementStreams* segment_streams = nullptr;
  const ReservedSeries* reserved = nullptr;  // reserved bytes after each event; null: none written
};

// allocations.stream of an element: the stream of its source event, else of its snapshot segment.
uint64_t element_stream(const Snapshot& snapshot, const ReplayInput& input, uint32_t elem);
// element_stream() of every element of `input`.
ElementStreams element_streams(const Snapshot& snapshot, const ReplayInput& input);

// Builds the database in one transaction, in two steps so that the snapshot's tables can be
// written while the timelines are still being derived. Every method throws
// std::runtime_error("<path>: ...") on failure; a half-built file is useless and must be deleted.
class ElementsDbBuilder {
 public:
  // `path` must not exist; `log` (optional) receives each table's write time.
  explicit ElementsDbBuilder(const std::string& path, StageLog* log = nullptr);
  ~ElementsDbBuilder();
  ElementsDbBuilder(const ElementsDbBuilder&) = delete;
  ElementsDbBuilder& operator=(const ElementsDbBuilder&) = delete;

  // Optional, before add_snapshot(): trace events in file order while the pickle is still
  // being read (ReadOptions::event_sink), so the biggest table is written in parallel with
  // parsing, keyed as `device`'s trace. add_snapshot() keeps them when they are that device's
  // whole trace (the usual case) and otherwise writes the events table again.
  void stream_events(int device, const EventBatch& batch);

  // Strings, frames, stacks, events, segments, blocks, annotations, settings: only the given
  // devices' events, segments, blocks and annotations.
  void add_snapshot(const Snapshot& snapshot, std::span<const int> devices);
  // The devices table and both timelines' elements.
  void add_layouts(const Snapshot& snapshot, std::span<const DeviceTimelines> devices);
  // Ends the inserts: after this the builder no longer reads the snapshot or the timelines.
  void commit();
  // commit() if not done yet, then the secondary indexes and statistics; closes the database and
  // attaches the tables written as pages.
  void finish();

 private:
  std::string path_;
  std::unique_ptr<SqliteDatabase> db_;
  StageLog* log_ = nullptr;
  // The tables of millions of rows, written as pages beside SQLite and attached by finish().
  std::unique_ptr<RowidTablePages> events_;
  std::unique_ptr<RowidTablePages> allocation_rows_;
  bool committed_ = false;
  std::unique_ptr<elements_db::EventContexts> contexts_;  // shared by every device's events
  std::unique_ptr<elements_db::StreamedEvents> streamed_;
};

// All three steps at once.
void write_elements_db(const Snapshot& snapshot, std::span<const DeviceTimelines> devices,
                       const std::string& path);

}  // namespace snapscope
