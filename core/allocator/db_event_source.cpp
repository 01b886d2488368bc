#include "core/allocator/db_event_source.h"

#include <algorithm>
#include <future>
#include <vector>

namespace snapscope {
namespace {

Action action_from_code(int64_t code) {
  return code >= 0 && code <= static_cast<int64_t>(Action::Unknown) ? static_cast<Action>(code)
                                                                    : Action::Unknown;
}

}  // namespace

// Below this many events a read is not split: a thread costs more than half of it saves.
constexpr size_t kSplitFromEvents = 16384;

DbEventSource::DbEventSource(const std::string& db_path, int device)
    : first_(db_path), second_(db_path), device_(device), count_(first_.db.event_count(device)) {}

void DbEventSource::read(size_t begin, size_t end, std::vector<AllocatorEvent>& out) {
  end = std::min(end, count_);
  begin = std::min(begin, end);
  out.assign(end - begin, AllocatorEvent{});
  if (end - begin < kSplitFromEvents) return read_into(first_, begin, begin, end, out);
  const size_t middle = begin + (end - begin) / 2;
  auto second_half = std::async(std::launch::async, [&] { read_into(second_, begin, middle, end, out); });
  read_into(first_, begin, begin, middle, out);  // its error first, as one read in order would give
  second_half.get();
}

void DbEventSource::read_into(Connection& connection, size_t first, size_t begin, size_t end,
                              std::vector<AllocatorEvent>& out) {
  connection.db.read_events(device_, begin, end, connection.rows);
  for (const EventRow& row : connection.rows) {
    out[static_cast<size_t>(row.index) - first] = {row.address, row.size, row.stream, row.stack,
                                                   action_from_code(row.action)};
  }
}

namespace {

AllocatorState final_state(const ElementsDbReader& db, const std::vector<SegmentRow>& segments, int device) {
  AllocatorState state;
  for (const SegmentRow& row : segments)
    state.add_segment({row.address, row.total_size, row.stream, row.stack});
  for (const LiveBlockRow& row : db.final_live_blocks(device)) {
    state.add_block({row.address, row.size, row.requested_size, row.stack, row.pending_free});
  }
  return state;
}

SegmentPools segment_pools(const std::vector<SegmentRow>& segments) {
  SegmentPools pools;
  for (const SegmentRow& row : segments) pools.add(row.address, row.total_size, row.pool_id);
  return pools;
}

}  // namespace

AllocatorState final_state_from_db(const std::string& db_path, int device) {
  const ElementsDbReader db(db_path);
  return final_state(db, db.final_segments(device), device);
}

SegmentPools segment_pools_from_db(const std::string& db_path, int device) {
  return segment_pools(ElementsDbReader(db_path).final_segments(device));
}

std::unique_ptr<AllocatorHistory> allocator_history_from_db(const std::string& db_path, int device,
                                                            const std::atomic<bool>* cancel) {
  // The end-of-trace segments once: they are the history's final state and name its pools.
  const ElementsDbReader db(db_path);
  const std::vector<SegmentRow> segments = db.final_segments(device);
  auto history = std::make_unique<AllocatorHistory>(
      final_state(db, segments, device), std::make_unique<DbEventSource>(db_path, device),
      AllocatorHistory::kDefaultBudget, AllocatorHistory::kDefaultInterval, cancel);
  history->set_pools(segment_pools(segments));
  return history;
}

}  // namespace snapscope
