// The allocator history's inputs read from a converted elements.db: the device's trace events
// (by primary-key range, so only the events a query needs are read) and its end-of-trace state.
#pragma once

#include <memory>
#include <string>

#include "core/allocator/allocator_history.h"
#include "core/store/elements_db/elements_db_reader.h"

namespace snapscope {

// A long read runs in two halves, each on its own read-only connection and thread: SQLite's
// stepping through the rows is most of what the history's backward pass costs.
class DbEventSource : public EventSource {
 public:
  DbEventSource(const std::string& db_path, int device);  // opens its own read-only connections
  size_t size() const override { return count_; }
  void read(size_t begin, size_t end, std::vector<AllocatorEvent>& out) override;

 private:
  struct Connection {
    explicit Connection(const std::string& db_path) : db(db_path) {}
    ElementsDbReader db;
    std::vector<EventRow> rows;  // reused between reads
  };
  // Events [begin, end) through `connection` into out[begin - first, ...).
  void read_into(Connection& connection, size_t first, size_t begin, size_t end,
                 std::vector<AllocatorEvent>& out);

  Connection first_, second_;
  int device_;
  size_t count_ = 0;
};

AllocatorState final_state_from_db(const std::string& db_path, int device);
// The private pools of the device's end-of-trace segments (segments.pool_id_0/1).
SegmentPools segment_pools_from_db(const std::string& db_path, int device);

// Builds the whole history from elements.db (the backward pass reads every event once).
std::unique_ptr<AllocatorHistory> allocator_history_from_db(const std::string& db_path, int device,
                                                            const std::atomic<bool>* cancel = nullptr);

}  // namespace snapscope
