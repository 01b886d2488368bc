// The ranges a value read from elements.db's big tables must lie in. Opening a directory checks
// the small tables whole (elements_db_check.h); events and allocation_rows hold a row per trace
// entry (30M rows take 10 s to scan), so their rows are checked here, where a reader reads them:
// a crafted value is the file's one-line error at first use, never a value shown as if real.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace snapscope {

class SqliteDatabase;

class RowLimits {
 public:
  // Reads the limits: a few key lookups.
  explicit RowLimits(SqliteDatabase& db);

  // Throws InputError naming the database when an events row is out of range.
  void check_event(int64_t size, int64_t stack_id, int64_t context) const;
  // Throws InputError when `stack_id` of `table` is neither 0 (no frames) nor one the stacks
  // table holds.
  void check_stack_id(const char* table, int64_t stack_id) const;
  // The same for an allocation_rows row, or with `segment` a segment_allocations row.
  void check_allocation(bool segment, int64_t size, std::optional<int64_t> alloc_event,
                        std::optional<int64_t> free_event, int64_t stack_id, int64_t stack_index) const;

 private:
  [[noreturn]] void bad_row(const std::string& what) const;

  std::string path_;
  int64_t last_stack_ = -1;    // stack ids are 0 (no frames) or 1..last_stack_
  int64_t last_context_ = -1;  // event_contexts ids are 0..last_context_
  int64_t most_elements_ = 0;  // stack indexes are below every device's element count
  int64_t most_segments_ = 0;  // and, for segments, below every device's segment count
};

}  // namespace snapscope
