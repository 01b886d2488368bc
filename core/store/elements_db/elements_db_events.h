// Internal to the elements.db writer: the events table, written either after reading (per
// device) or streamed while the pickle is still being parsed (StreamedEvents).
#pragma once

#include <cstdint>
#include <span>

#include "core/snapshot/event_sink.h"
#include "core/snapshot/model.h"
#include "core/store/elements_db/event_contexts.h"
#include "core/store/elements_db/rowid_table_pages.h"
#include "core/store/elements_db/sqlite_batch_insert.h"
#include "core/store/elements_db/sqlite_handle.h"

namespace snapscope::elements_db {

inline constexpr int kEventColumns = 7;

// Events of one device (events into `pages`, event_extras into `db`), keyed device << 40 | idx.
// Their contexts get ids in `contexts`, whose rows the caller writes after the last events.
void write_events(SqliteDatabase& db, RowidTablePages& pages, const Snapshot& snapshot, int device,
                  EventContexts& contexts);
void write_event_extras(SqliteDatabase& db, const Snapshot& snapshot, int device);

// Events in file order while the file is still being read. Which device they belong to is
// unknown then, so they are keyed as one device's trace: device 0 (the common case: one GPU,
// cuda:0), or N when the reader keeps only device N's entries (ReadOptions::only_device);
// adopt() checks that guess once the snapshot is complete and undoes the rows when wrong.
// Times are relative to the first timestamp seen; adopt() undoes the rows too if the device's
// minimum turns out to be earlier (rare: they are written again).
class StreamedEvents {
 public:
  StreamedEvents(RowidTablePages& pages, int device, EventContexts& contexts);
  void add(const EventBatch& batch);

  // True if the device is converted and its trace is exactly the streamed events, times
  // included: its rows are then complete and must not be written again. Otherwise deletes them.
  bool adopt(const Snapshot& snapshot, std::span<const int> devices);
  int device() const { return device_; }

 private:
  RowidTablePages& pages_;
  EventContexts& contexts_;
  int device_;
  EventBatchTables tables_;
  uint64_t count_ = 0;
  uint64_t fingerprint_;
  int64_t time_base_ = kNoTime;
};

}  // namespace snapscope::elements_db
