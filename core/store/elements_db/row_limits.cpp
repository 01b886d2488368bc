#include "core/store/elements_db/row_limits.h"

#include "core/snapshot/snapshot_reader.h"
#include "core/store/elements_db/sqlite_handle.h"

namespace snapscope {
namespace {

// The one value of `sql`; -1 for NULL (an empty table).
int64_t scalar_or_minus_one(SqliteDatabase& db, const char* sql) {
  SqliteStatement query = db.prepare(sql);
  if (!query.next_row() || query.column_is_null(0)) return -1;
  return query.column_int(0);
}

}  // namespace

RowLimits::RowLimits(SqliteDatabase& db)
    : path_(db.path()),
      last_stack_(scalar_or_minus_one(db, "SELECT max(stack_id) FROM stacks")),
      last_context_(scalar_or_minus_one(db, "SELECT max(id) FROM event_contexts")),
      most_elements_(scalar_or_minus_one(
          db, "SELECT max(allocations + snapshot_blocks + free_without_alloc) FROM devices")),
      most_segments_(scalar_or_minus_one(db, "SELECT max(segment_allocations) FROM devices")) {}

void RowLimits::bad_row(const std::string& what) const { throw InputError(path_ + ": " + what); }

void RowLimits::check_stack_id(const char* table, int64_t stack_id) const {
  if (stack_id < 0 || (stack_id > 0 && stack_id > last_stack_)) {
    bad_row(std::string(table) + ": stack id " + std::to_string(stack_id) +
            ", which the stacks table does not hold");
  }
}

void RowLimits::check_event(int64_t size, int64_t stack_id, int64_t context) const {
  if (size < 0) bad_row("events: a negative size");
  check_stack_id("events", stack_id);
  if (context < 0 || context > last_context_)
    bad_row("events: a row points at an event_contexts row that does not exist");
}

void RowLimits::check_allocation(bool segment, int64_t size, std::optional<int64_t> alloc_event,
                                 std::optional<int64_t> free_event, int64_t stack_id,
                                 int64_t stack_index) const {
  const char* table = segment ? "segment_allocations" : "allocation_rows";
  const std::string name(table);
  if (size < 0) bad_row(name + ": a negative size");
  if (free_event && *free_event < alloc_event.value_or(0))
    bad_row(name + ": an allocation freed before it is allocated");
  check_stack_id(table, stack_id);
  if (stack_index < 0 || stack_index >= (segment ? most_segments_ : most_elements_))
    bad_row(name + ": stack_index " + std::to_string(stack_index) + " out of range");
}

}  // namespace snapscope
