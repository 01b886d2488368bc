// Internal to the elements.db writer: the event_contexts table. An event's stream,
// compile_context and user_metadata are zero on almost every event of most snapshots, and a few
// distinct triples on the others (one stream per CUDA stream, one compile context per compiled
// region): events store the triple's id in one column, 0 for all-zero, instead of three columns
// (2 bytes and ~10 % of the write time less per events row).
#pragma once

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "core/snapshot/model.h"
#include "core/store/elements_db/sqlite_handle.h"

namespace snapscope::elements_db {

struct EventContext {
  uint64_t stream = 0;
  StringId compile_context = 0;
  StringId user_metadata = 0;
  bool operator==(const EventContext&) const = default;
};

class EventContexts {
 public:
  // The id of `context`, numbered in order of first use from 1; 0 is the all-zero context.
  int64_t id_of(const EventContext& context) {
    if (context == EventContext{}) return 0;
    if (context == last_) return last_id_;  // runs of events share their context
    return remember(context);
  }
  // Forgets every id handed out (their events rows were deleted).
  void clear();
  // The table's rows: id 0 and every id handed out.
  void write(SqliteDatabase& db) const;

 private:
  struct Hash {
    size_t operator()(const EventContext& c) const {
      return std::hash<uint64_t>()(c.stream * 0x9E3779B97F4A7C15ULL ^ (uint64_t{c.compile_context} << 32) ^
                                   c.user_metadata);
    }
  };
  int64_t remember(const EventContext& context);

  std::unordered_map<EventContext, int64_t, Hash> ids_;
  std::vector<EventContext> contexts_;  // by id - 1
  EventContext last_;
  int64_t last_id_ = 0;
};

}  // namespace snapscope::elements_db
