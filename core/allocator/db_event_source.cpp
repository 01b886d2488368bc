#include "core/allocator/db_event_source.h"

#include <algorithm>

namespace snapscope {
namespace {

Action action_from_code(int64_t code) {
  return code >= 0 && code <= static_cast<int64_t>(Action::Unknown) ? static_cast<Action>(code)
                                                                    : Action::Unknown;
}

// events.id = device << 40 | event index (docs/FORMAT.md): a range of one device's events is a
// range of the rowid.
constexpr int kDeviceShift = 40;

int64_t event_id(int device, size_t index) {
  return (static_cast<int64_t>(device) << kDeviceShift) | static_cast<int64_t>(index);
}

size_t count_events(SqliteDatabase& db, int device) {
  SqliteStatement count = db.prepare("SELECT events FROM devices WHERE device = ?1");
  count.bind(1, device);
  return count.next_row() ? static_cast<size_t>(count.column_int(0)) : 0;
}

}  // namespace

DbEventSource::DbEventSource(const std::string& db_path, int device)
    : db_(db_path, SqliteDatabase::Mode::ReadOnly),
      range_(db_.prepare("SELECT id - ?1, action, addr, size, stream, stack_id FROM events "
                         "WHERE id >= ?1 + ?2 AND id < ?1 + ?3 ORDER BY id")),
      device_(device),
      count_(count_events(db_, device)) {}

void DbEventSource::read(size_t begin, size_t end, std::vector<AllocatorEvent>& out) {
  end = std::min(end, count_);
  begin = std::min(begin, end);
  out.assign(end - begin, AllocatorEvent{});
  range_.reset();
  range_.bind(1, event_id(device_, 0));
  range_.bind(2, static_cast<int64_t>(begin));
  range_.bind(3, static_cast<int64_t>(end));
  while (range_.next_row()) {
    const auto index = static_cast<size_t>(range_.column_int(0)) - begin;
    out[index] = {static_cast<uint64_t>(range_.column_int(2)), static_cast<uint64_t>(range_.column_int(3)),
                  static_cast<uint64_t>(range_.column_int(4)), static_cast<StackId>(range_.column_int(5)),
                  action_from_code(range_.column_int(1))};
  }
}

AllocatorState final_state_from_db(const std::string& db_path, int device) {
  SqliteDatabase db(db_path, SqliteDatabase::Mode::ReadOnly);
  AllocatorState state;
  SqliteStatement segments =
      db.prepare("SELECT address, total_size, stream, stack_id FROM segments WHERE device = ?1");
  segments.bind(1, device);
  while (segments.next_row()) {
    state.add_segment(
        {static_cast<uint64_t>(segments.column_int(0)), static_cast<uint64_t>(segments.column_int(1)),
         static_cast<uint64_t>(segments.column_int(2)), static_cast<StackId>(segments.column_int(3))});
  }
  SqliteStatement blocks = db.prepare(
      "SELECT b.address, b.size, b.requested_size, b.stack_id, b.state = 'active_pending_free' "
      "FROM blocks b JOIN segments s ON s.id = b.segment_id WHERE s.device = ?1 "
      "AND b.state IN ('active_allocated', 'active_pending_free')");
  blocks.bind(1, device);
  while (blocks.next_row()) {
    state.add_block({static_cast<uint64_t>(blocks.column_int(0)), static_cast<uint64_t>(blocks.column_int(1)),
                     static_cast<uint64_t>(blocks.column_int(2)), static_cast<StackId>(blocks.column_int(3)),
                     blocks.column_int(4) != 0});
  }
  return state;
}

std::unique_ptr<AllocatorHistory> allocator_history_from_db(const std::string& db_path, int device,
                                                            const std::atomic<bool>* cancel) {
  return std::make_unique<AllocatorHistory>(
      final_state_from_db(db_path, device), std::make_unique<DbEventSource>(db_path, device),
      AllocatorHistory::kDefaultBudget, AllocatorHistory::kDefaultInterval, cancel);
}

}  // namespace snapscope
