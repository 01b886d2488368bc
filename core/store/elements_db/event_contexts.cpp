#include "core/store/elements_db/event_contexts.h"

#include "core/store/elements_db/sqlite_batch_insert.h"

namespace snapscope::elements_db {

int64_t EventContexts::remember(const EventContext& context) {
  const auto [it, added] = ids_.try_emplace(context, static_cast<int64_t>(contexts_.size()) + 1);
  if (added) contexts_.push_back(context);
  last_ = context;
  last_id_ = it->second;
  return last_id_;
}

void EventContexts::clear() {
  ids_.clear();
  contexts_.clear();
  last_ = EventContext{};
  last_id_ = 0;
}

void EventContexts::write(SqliteDatabase& db) const {
  SqliteBatchInsert insert(db, "event_contexts", 4);
  insert.add(int64_t{0}).add(int64_t{0}).add(int64_t{0}).add(int64_t{0});
  insert.end_row();
  int64_t id = 1;
  for (const EventContext& context : contexts_) {
    insert.add(id++).add(static_cast<int64_t>(context.stream));
    insert.add(static_cast<int64_t>(context.compile_context))
        .add(static_cast<int64_t>(context.user_metadata));
    insert.end_row();
  }
  insert.flush();
}

}  // namespace snapscope::elements_db
