// DDL of elements.db. Tables are created before the bulk insert. The allocations indexes are
// created just before their rows arrive: alloc_event arrives almost sorted and addresses are
// re-used a lot, so maintaining them per row (in a warm page cache) is cheaper than SQLite's
// sort-based CREATE INDEX afterwards (measured: 2.8 s vs 3.6 s for 2.9M rows). The small
// tables' indexes come after all inserts.
#pragma once

namespace snapscope {

extern const char* const kElementsDbTables;
extern const char* const kElementsDbLayoutIndexes;
extern const char* const kElementsDbIndexes;

}  // namespace snapscope
