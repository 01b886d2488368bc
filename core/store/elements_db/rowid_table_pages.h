// The b-tree of a rowid table, written in SQLite's file format by us instead of by SQLite, for
// the two tables of millions of rows (events, allocation_rows). SQLite spends about 25 VDBE
// opcodes on each row it inserts, about 0.45 us a row: on a 1 GB snapshot (9M rows) that was
// 4 CPU-seconds, the bound of the database thread and of "every panel ready". Encoding the
// records and filling the pages here takes a small fraction of that.
//
// The rows come in increasing rowid order, integers and NULLs only, into a table that SQLite
// created and left empty and that has no index. Full leaf pages go to an unnamed side file as
// they fill; once SQLite has closed the database, attach_rowid_tables() appends them to it,
// writes the interior pages above them, makes the table's root page the top of that tree and
// sets the header's page count. SQLite then reads the table as if it had written it.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/store/elements_db/sqlite_row_feed.h"

namespace snapscope {

class RowidTablePages {
 public:
  // `db_path`: the database the table will be attached to, whose directory holds the side file
  // (unnamed: it leaves nothing behind, even on a crash) and which errors name; `page_size`: the
  // database's (no reserved bytes); `small_ints`: its schema format is 4.
  RowidTablePages(const std::string& db_path, std::string table, int columns, uint32_t page_size,
                  bool small_ints = true);
  ~RowidTablePages();
  RowidTablePages(const RowidTablePages&) = delete;
  RowidTablePages& operator=(const RowidTablePages&) = delete;

  // Rows [0, rows) in order, as SqliteRowFeed::insert takes them: values[0] is the rowid, NULL
  // for the last rowid plus one (as SQLite numbers a NULL INTEGER PRIMARY KEY in an append).
  // Throws std::logic_error for a rowid not above the last one: callers write in key order.
  void insert(size_t rows, const SqliteRowFeed::Fill& fill);
  void clear();  // forgets every row

  const std::string& table() const { return table_; }
  uint64_t rows() const { return rows_; }
  int64_t last_rowid() const { return last_rowid_; }

  // What attach_rowid_tables() needs: the leaves, in order, and the largest rowid of each.
  void finish_leaves();  // writes out the last, partly filled leaf
  int side_file() const { return side_fd_; }
  std::span<const int64_t> leaf_max_rowids() const { return leaf_max_; }
  uint32_t page_size() const { return page_size_; }
  bool small_ints() const { return small_ints_; }

 private:
  void add_row(std::span<const FeedValue> values);
  void add_cell(const uint8_t* cell, size_t length, int64_t rowid);
  void write_leaf();
  void flush_buffer();

  std::string db_path_;
  std::string table_;
  uint32_t page_size_;
  bool small_ints_;
  int side_fd_ = -1;
  uint64_t rows_ = 0;
  int64_t last_rowid_ = 0;
  std::vector<FeedValue> values_;

  // The leaf being filled: cells packed from the page's end down, pointers after the header.
  std::vector<uint8_t> page_;
  uint16_t cells_ = 0;
  size_t content_start_ = 0;  // offset of the lowest cell
  int64_t page_max_rowid_ = 0;
  std::vector<int64_t> leaf_max_;
  std::vector<uint8_t> buffer_;  // full leaves not yet written to the side file
  uint64_t written_ = 0;         // bytes in the side file
};

// Appends each table's pages to the SQLite database at `db_path` (closed, no journal, no
// auto-vacuum, page size as the tables'), `roots[i]` being tables[i]'s root page in its
// schema. Throws std::runtime_error("<db_path>: ...") when the file is not what it should be.
void attach_rowid_tables(const std::string& db_path, std::span<RowidTablePages* const> tables,
                         std::span<const uint32_t> roots);

}  // namespace snapscope
