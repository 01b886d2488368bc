#include "core/store/elements_db/rowid_table_pages.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <system_error>
#include <vector>

#include "core/store/elements_db/sqlite_record.h"

namespace snapscope {
namespace {

// Page layouts (https://sqlite.org/fileformat2.html, "B-tree Pages").
constexpr uint8_t kLeafTablePage = 0x0d;
constexpr uint8_t kInteriorTablePage = 0x05;
constexpr size_t kLeafHeaderBytes = 8;
constexpr size_t kInteriorHeaderBytes = 12;
constexpr size_t kCellPointerBytes = 2;
constexpr size_t kChildPointerBytes = 4;
constexpr size_t kBufferedLeaves = 64;
constexpr size_t kMaxColumns = 32;

// The database header's fields that attaching reads or sets.
constexpr size_t kHeaderBytes = 100;
constexpr size_t kPageSizeAt = 16;
constexpr size_t kReservedBytesAt = 20;
constexpr size_t kChangeCounterAt = 24;
constexpr size_t kPageCountAt = 28;
constexpr size_t kSchemaFormatAt = 44;
constexpr size_t kAutoVacuumRootAt = 52;
constexpr size_t kVersionValidForAt = 92;
constexpr char kMagic[] = "SQLite format 3";

void put_be16(uint8_t* out, size_t value) {
  out[0] = static_cast<uint8_t>(value >> 8);
  out[1] = static_cast<uint8_t>(value);
}
void put_be32(uint8_t* out, uint32_t value) {
  for (int i = 3; i >= 0; --i) {
    out[i] = static_cast<uint8_t>(value);
    value >>= 8;
  }
}
uint32_t be32(const uint8_t* in) {
  return (uint32_t{in[0]} << 24) | (uint32_t{in[1]} << 16) | (uint32_t{in[2]} << 8) | in[3];
}
// The header fields a leaf and an interior page share: type, cell count, and where the cell
// content starts (0 stands for 65536). No free blocks, no fragmented bytes.
void put_page_header(uint8_t* page, uint8_t type, size_t cells, size_t content_start) {
  page[0] = type;
  put_be16(page + 3, cells);
  put_be16(page + 5, content_start == 65536 ? 0 : content_start);
}

[[noreturn]] void fail(const std::string& path, const std::string& what) {
  throw std::runtime_error(path + ": " + what);
}
[[noreturn]] void fail_errno(const std::string& path, const std::string& what) {
  fail(path, what + ": " + std::error_code(errno, std::generic_category()).message());
}

void write_all(int fd, const uint8_t* data, size_t length, uint64_t offset, const std::string& path) {
  while (length > 0) {
    const ssize_t n = ::pwrite(fd, data, length, static_cast<off_t>(offset));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) fail_errno(path, "cannot write");
    data += n;
    length -= static_cast<size_t>(n);
    offset += static_cast<uint64_t>(n);
  }
}

void read_all(int fd, uint8_t* data, size_t length, uint64_t offset, const std::string& path) {
  while (length > 0) {
    const ssize_t n = ::pread(fd, data, length, static_cast<off_t>(offset));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) fail_errno(path, "cannot read");
    if (n == 0) fail(path, "shorter than its header says");
    data += n;
    length -= static_cast<size_t>(n);
    offset += static_cast<uint64_t>(n);
  }
}

// Bytes [0, length) of the side file to `offset` of the database, in the kernel where it can.
void copy_range(int from, int to, uint64_t length, uint64_t offset, const std::string& path) {
  loff_t in = 0;
  auto out = static_cast<loff_t>(offset);
  while (length > 0) {
    const ssize_t n = ::copy_file_range(from, &in, to, &out, length, 0);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;  // not supported here: copied below
    length -= static_cast<uint64_t>(n);
  }
  std::vector<uint8_t> chunk(1 << 20);
  while (length > 0) {
    const size_t n = static_cast<size_t>(std::min<uint64_t>(chunk.size(), length));
    read_all(from, chunk.data(), n, static_cast<uint64_t>(in), path + " (pages being attached)");
    write_all(to, chunk.data(), n, static_cast<uint64_t>(out), path);
    in += static_cast<loff_t>(n);
    out += static_cast<loff_t>(n);
    length -= n;
  }
}

// A file in `dir` without a name; where the file system has no O_TMPFILE (NFS), a named one
// removed at once. -1 with errno on failure.
int open_unnamed_file(const std::string& dir) {
  const int fd = ::open(dir.c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
  if (fd >= 0 || (errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL)) return fd;
  std::string name = dir + "/.pages-XXXXXX";
  const int named = ::mkostemp(name.data(), O_CLOEXEC);
  if (named >= 0) ::unlink(name.c_str());
  return named;
}

struct Child {
  uint32_t page = 0;
  int64_t max_rowid = 0;
};

size_t interior_cell_bytes(const Child& child) {
  return kCellPointerBytes + kChildPointerBytes +
         sqlite_format::varint_length(static_cast<uint64_t>(child.max_rowid));
}

// Splits one level's pages among parents, each as full as a page holds, none with a single child.
std::vector<std::span<const Child>> group_children(std::span<const Child> level, uint32_t page_size) {
  const size_t room = page_size - kInteriorHeaderBytes;
  std::vector<std::span<const Child>> groups;
  size_t first = 0, used = 0;
  for (size_t i = first + 1; i < level.size(); ++i) {
    const size_t cell = interior_cell_bytes(level[i - 1]);  // the child before turns into a cell
    if (i - first >= 2 && used + cell > room) {
      groups.push_back(level.subspan(first, i - first));
      first = i;
      used = 0;
      continue;
    }
    used += cell;
  }
  groups.push_back(level.subspan(first));
  if (groups.size() > 1 && groups.back().size() == 1) {  // lend it the previous parent's last child
    auto& previous = groups[groups.size() - 2];
    previous = previous.first(previous.size() - 1);
    groups.back() = level.subspan(first - 1);
  }
  return groups;
}

void fill_interior_page(std::span<const Child> children, uint32_t page_size, std::vector<uint8_t>& page) {
  page.assign(page_size, 0);
  const size_t cells = children.size() - 1;
  size_t content = page_size;
  for (size_t i = 0; i < cells; ++i) {
    std::array<uint8_t, kChildPointerBytes + sqlite_format::kMaxVarintBytes> cell{};
    put_be32(cell.data(), children[i].page);
    const size_t length =
        kChildPointerBytes +
        sqlite_format::put_varint(static_cast<uint64_t>(children[i].max_rowid), cell.data() + 4);
    content -= length;
    std::memcpy(page.data() + content, cell.data(), length);
    put_be16(page.data() + kInteriorHeaderBytes + i * kCellPointerBytes, content);
  }
  put_page_header(page.data(), kInteriorTablePage, cells, content);
  put_be32(page.data() + 8, children.back().page);
}

// The database's header, checked for what attaching assumes.
struct DbHeader {
  std::array<uint8_t, kHeaderBytes> bytes{};
  uint32_t page_size = 0;
  uint32_t pages = 0;
};

DbHeader read_header(int fd, const std::string& path) {
  DbHeader header;
  read_all(fd, header.bytes.data(), kHeaderBytes, 0, path);
  const uint8_t* b = header.bytes.data();
  if (std::memcmp(b, kMagic, sizeof kMagic) != 0) fail(path, "not an SQLite database");
  const uint32_t size_field = (uint32_t{b[kPageSizeAt]} << 8) | b[kPageSizeAt + 1];
  header.page_size = size_field == 1 ? 65536 : size_field;
  header.pages = be32(b + kPageCountAt);
  if (b[kReservedBytesAt] != 0 || be32(b + kAutoVacuumRootAt) != 0 ||
      be32(b + kChangeCounterAt) != be32(b + kVersionValidForAt)) {
    fail(path, "the database's header is not one these pages can be attached to");
  }
  struct stat st {};
  if (::fstat(fd, &st) != 0) fail_errno(path, "cannot stat");
  if (static_cast<uint64_t>(st.st_size) != uint64_t{header.pages} * header.page_size) {
    fail(path, "its size does not match its page count");
  }
  return header;
}

void check_empty_root(int fd, uint32_t root, const DbHeader& header, const std::string& path,
                      const std::string& table) {
  if (root < 2 || root > header.pages) fail(path, table + " has no root page to attach to");
  std::array<uint8_t, kLeafHeaderBytes> page{};
  read_all(fd, page.data(), page.size(), uint64_t{root - 1} * header.page_size, path);
  if (page[0] != kLeafTablePage || page[3] != 0 || page[4] != 0) fail(path, table + " is not empty");
}

// Appends `table`'s leaves at page `next` on and its interior pages after them, the top one
// at `root`; returns the next free page.
uint32_t attach_table(int fd, const RowidTablePages& table, uint32_t root, uint32_t next,
                      const std::string& path) {
  const std::span<const int64_t> leaves = table.leaf_max_rowids();
  const uint32_t page_size = table.page_size();
  if (leaves.size() == 1) {  // the root is that leaf
    copy_range(table.side_file(), fd, page_size, uint64_t{root - 1} * page_size, path);
    return next;
  }
  std::vector<Child> level;
  level.reserve(leaves.size());
  for (const int64_t max_rowid : leaves) level.push_back({next++, max_rowid});
  copy_range(table.side_file(), fd, uint64_t{leaves.size()} * page_size,
             uint64_t{level.front().page - 1} * page_size, path);
  std::vector<uint8_t> page;
  while (level.size() > 1) {
    const auto groups = group_children(level, page_size);
    std::vector<Child> parents;
    for (const auto& group : groups) {
      const uint32_t number = groups.size() == 1 ? root : next++;
      fill_interior_page(group, page_size, page);
      write_all(fd, page.data(), page.size(), uint64_t{number - 1} * page_size, path);
      parents.push_back({number, group.back().max_rowid});
    }
    level = std::move(parents);
  }
  return next;
}

}  // namespace

RowidTablePages::RowidTablePages(const std::string& db_path, std::string table, int columns,
                                 uint32_t page_size, bool small_ints)
    : db_path_(db_path),
      table_(std::move(table)),
      page_size_(page_size),
      small_ints_(small_ints),
      values_(static_cast<size_t>(columns)),
      page_(page_size, 0),
      content_start_(page_size) {
  if (values_.size() > kMaxColumns) throw std::logic_error(table_ + ": too many columns");
  side_fd_ = open_unnamed_file(std::filesystem::absolute(db_path).parent_path().string());
  if (side_fd_ < 0) fail_errno(db_path_, "cannot make a file for the " + table_ + " table");
}

RowidTablePages::~RowidTablePages() {
  if (side_fd_ >= 0) ::close(side_fd_);
}

void RowidTablePages::insert(size_t rows, const SqliteRowFeed::Fill& fill) {
  for (size_t row = 0; row < rows; ++row) {
    fill(row, values_);
    add_row(values_);
  }
}

void RowidTablePages::add_row(std::span<const FeedValue> values) {
  const int64_t rowid = values[0].null ? last_rowid_ + 1 : values[0].value;
  if (rows_ > 0 && rowid <= last_rowid_) {
    throw std::logic_error(table_ + ": row " + std::to_string(rowid) + " is not above the last one");
  }
  // Not zeroed: only the bytes written are read (a row of the hot loop, millions per table).
  std::array<uint8_t, 2 * sqlite_format::kMaxVarintBytes + sqlite_format::max_record_bytes(kMaxColumns)> cell;
  uint8_t* record = cell.data() + 2 * sqlite_format::kMaxVarintBytes;
  const size_t record_length = sqlite_format::put_record(values, small_ints_, record);
  // The cell: the record's length and the rowid as varints, right before the record.
  std::array<uint8_t, 2 * sqlite_format::kMaxVarintBytes> head;
  size_t head_length = sqlite_format::put_varint(record_length, head.data());
  head_length += sqlite_format::put_varint(static_cast<uint64_t>(rowid), head.data() + head_length);
  uint8_t* start = record - head_length;
  std::memcpy(start, head.data(), head_length);
  add_cell(start, head_length + record_length, rowid);
  last_rowid_ = rowid;
  ++rows_;
}

void RowidTablePages::add_cell(const uint8_t* cell, size_t length, int64_t rowid) {
  if (kLeafHeaderBytes + (cells_ + size_t{1}) * kCellPointerBytes + length > content_start_) write_leaf();
  content_start_ -= length;
  std::memcpy(page_.data() + content_start_, cell, length);
  put_be16(page_.data() + kLeafHeaderBytes + cells_ * kCellPointerBytes, content_start_);
  ++cells_;
  page_max_rowid_ = rowid;
}

void RowidTablePages::write_leaf() {
  put_page_header(page_.data(), kLeafTablePage, cells_, content_start_);
  buffer_.insert(buffer_.end(), page_.begin(), page_.end());
  leaf_max_.push_back(page_max_rowid_);
  std::fill(page_.begin(), page_.end(), 0);
  cells_ = 0;
  content_start_ = page_size_;
  if (buffer_.size() >= kBufferedLeaves * page_size_) flush_buffer();
}

void RowidTablePages::flush_buffer() {
  write_all(side_fd_, buffer_.data(), buffer_.size(), written_, db_path_ + " (" + table_ + ")");
  written_ += buffer_.size();
  buffer_.clear();
}

void RowidTablePages::finish_leaves() {
  if (cells_ > 0) write_leaf();
  flush_buffer();
}

void RowidTablePages::clear() {
  rows_ = 0;
  last_rowid_ = 0;
  std::fill(page_.begin(), page_.end(), 0);
  cells_ = 0;
  content_start_ = page_size_;
  leaf_max_.clear();
  buffer_.clear();
  written_ = 0;
  if (::ftruncate(side_fd_, 0) != 0) fail_errno(db_path_ + " (" + table_ + ")", "cannot start again");
}

void attach_rowid_tables(const std::string& db_path, std::span<RowidTablePages* const> tables,
                         std::span<const uint32_t> roots) {
  const int fd = ::open(db_path.c_str(), O_RDWR | O_CLOEXEC);
  if (fd < 0) fail_errno(db_path, "cannot open");
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  DbHeader header = read_header(fd, db_path);
  const bool small_ints = be32(header.bytes.data() + kSchemaFormatAt) >= 4;
  uint32_t next = header.pages + 1;
  for (size_t i = 0; i < tables.size(); ++i) {
    RowidTablePages& table = *tables[i];
    if (table.page_size() != header.page_size || (table.small_ints() && !small_ints)) {
      fail(db_path, table.table() + "'s pages do not fit the database's format");
    }
    table.finish_leaves();
    check_empty_root(fd, roots[i], header, db_path, table.table());
    if (!table.leaf_max_rowids().empty()) next = attach_table(fd, table, roots[i], next, db_path);
  }
  uint8_t* b = header.bytes.data();
  const uint32_t changes = be32(b + kChangeCounterAt) + 1;
  put_be32(b + kChangeCounterAt, changes);
  put_be32(b + kVersionValidForAt, changes);
  put_be32(b + kPageCountAt, next - 1);
  write_all(fd, b, kHeaderBytes, 0, db_path);
}

}  // namespace snapscope
