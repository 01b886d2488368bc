// DDL of elements.db. Tables are created before the bulk insert, secondary indexes after it
// (building an index once over sorted data is much faster than maintaining it per row).
#pragma once

namespace snapscope {

extern const char* const kElementsDbTables;
extern const char* const kElementsDbIndexes;

}  // namespace snapscope
