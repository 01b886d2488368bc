#include "core/allocator/db_event_source.h"

#include <algorithm>

namespace snapscope {
namespace {

Action action_from_code(int64_t code) {
  return code >= 0 && code <= static_cast<int64_t>(Action::Unknown) ? static_cast<Action>(code)
                                                                    : Action::Unknown;
}

}  // namespace

DbEventSource::DbEventSource(const std::string& db_path, int device)
    : db_(db_path), device_(device), count_(db_.event_count(device)) {}

void DbEventSource::read(size_t begin, size_t end, std::vector<AllocatorEvent>& out) {
  end = std::min(end, count_);
  begin = std::min(begin, end);
  out.assign(end - begin, AllocatorEvent{});
  db_.read_events(device_, begin, end, rows_);
  for (const EventRow& row : rows_) {
    out[static_cast<size_t>(row.index) - begin] = {row.address, row.size, row.stream, row.stack,
                                                   action_from_code(row.action)};
  }
}

AllocatorState final_state_from_db(const std::string& db_path, int device) {
  const ElementsDbReader db(db_path);
  AllocatorState state;
  for (const SegmentRow& row : db.final_segments(device)) {
    state.add_segment({row.address, row.total_size, row.stream, row.stack});
  }
  for (const LiveBlockRow& row : db.final_live_blocks(device)) {
    state.add_block({row.address, row.size, row.requested_size, row.stack, row.pending_free});
  }
  return state;
}

SegmentPools segment_pools_from_db(const std::string& db_path, int device) {
  SegmentPools pools;
  for (const SegmentRow& row : ElementsDbReader(db_path).final_segments(device))
    pools.add(row.address, row.total_size, row.pool_id);
  return pools;
}

std::unique_ptr<AllocatorHistory> allocator_history_from_db(const std::string& db_path, int device,
                                                            const std::atomic<bool>* cancel) {
  auto history = std::make_unique<AllocatorHistory>(
      final_state_from_db(db_path, device), std::make_unique<DbEventSource>(db_path, device),
      AllocatorHistory::kDefaultBudget, AllocatorHistory::kDefaultInterval, cancel);
  history->set_pools(segment_pools_from_db(db_path, device));
  return history;
}

}  // namespace snapscope
