// SQLite's on-disk encodings of a row, as its file format defines them
// (https://sqlite.org/fileformat2.html, "Record Format" and "Variable-length integers"), for
// rows that the elements.db writer puts into table pages itself (rowid_table_pages.h). Only
// integers and NULLs: the tables written that way have no other values.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "core/store/elements_db/sqlite_row_feed.h"

namespace snapscope::sqlite_format {

inline constexpr size_t kMaxVarintBytes = 9;

// Writes `value` as an SQLite varint at `out` (room for kMaxVarintBytes); returns its length.
size_t put_varint(uint64_t value, uint8_t* out);
size_t varint_length(uint64_t value);

// The record of one row, as SQLite's OP_MakeRecord writes it: `values[0]` is the table's
// INTEGER PRIMARY KEY, which a record holds as NULL (the cell's rowid holds it), and
// `small_ints` picks the schema-format-4 serial types for 0 and 1. Returns the record's length;
// `out` must have room for max_record_bytes(values.size()).
size_t put_record(std::span<const FeedValue> values, bool small_ints, uint8_t* out);
constexpr size_t max_record_bytes(size_t columns) { return 1 + columns + columns * 8; }

}  // namespace snapscope::sqlite_format
