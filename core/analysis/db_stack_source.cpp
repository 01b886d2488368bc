#include "core/analysis/db_stack_source.h"

#include <sqlite3.h>

#include "core/snapshot/snapshot_reader.h"

namespace snapscope {

// A prepared statement that is reset before each use.
class DbStackSource::Statement {
 public:
  Statement(const DbStackSource& owner, const char* sql) : owner_(owner) {
    if (sqlite3_prepare_v2(owner.db_, sql, -1, &stmt_, nullptr) != SQLITE_OK)
      owner.fail(sqlite3_errmsg(owner.db_));
  }
  ~Statement() { sqlite3_finalize(stmt_); }
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;

  sqlite3_stmt* start(int64_t key) {
    sqlite3_reset(stmt_);
    sqlite3_bind_int64(stmt_, 1, key);
    return stmt_;
  }
  bool next_row() {
    const int code = sqlite3_step(stmt_);
    if (code != SQLITE_ROW && code != SQLITE_DONE) owner_.fail(sqlite3_errmsg(owner_.db_));
    return code == SQLITE_ROW;
  }
  int64_t integer(int column) const { return sqlite3_column_int64(stmt_, column); }
  std::string text(int column) const {
    const unsigned char* bytes = sqlite3_column_text(stmt_, column);
    return bytes ? std::string(reinterpret_cast<const char*>(bytes),
                               size_t(sqlite3_column_bytes(stmt_, column)))
                 : std::string();
  }

 private:
  const DbStackSource& owner_;
  sqlite3_stmt* stmt_ = nullptr;
};

DbStackSource::DbStackSource(const std::string& path) : path_(path) {
  if (sqlite3_open_v2(path.c_str(), &db_, SQLITE_OPEN_READONLY, nullptr) != SQLITE_OK) {
    const std::string reason = db_ ? sqlite3_errmsg(db_) : "cannot open";
    sqlite3_close(db_);
    db_ = nullptr;
    fail(reason);
  }
  try {
    stack_query_ =
        std::make_unique<Statement>(*this, "SELECT frame_id FROM stacks WHERE stack_id = ? ORDER BY depth");
    frame_query_ = std::make_unique<Statement>(*this,
                                               "SELECT name, filename, line, fx_node_op, fx_node_name, "
                                               "fx_node_target, fx_original_trace FROM frames WHERE id = ?");
    string_query_ = std::make_unique<Statement>(*this, "SELECT text FROM strings WHERE id = ?");
  } catch (...) {
    stack_query_.reset();
    frame_query_.reset();
    string_query_.reset();
    sqlite3_close(db_);
    throw;
  }
}

DbStackSource::~DbStackSource() {
  // Statements must be finalized before the connection closes.
  stack_query_.reset();
  frame_query_.reset();
  string_query_.reset();
  sqlite3_close(db_);
}

void DbStackSource::fail(const std::string& what) const { throw InputError(path_ + ": " + what); }

std::span<const FrameId> DbStackSource::stack_frames(StackId stack) const {
  if (stack == 0) return {};
  auto [it, inserted] = stacks_.try_emplace(stack);
  if (inserted) {
    Statement& query = *stack_query_;
    query.start(stack);
    while (query.next_row()) it->second.push_back(static_cast<FrameId>(query.integer(0)));
  }
  return it->second;
}

std::string_view DbStackSource::string(StringId id) const {
  auto [it, inserted] = strings_.try_emplace(id);
  if (inserted && id != 0) {
    Statement& query = *string_query_;
    query.start(id);
    if (!query.next_row()) fail("string " + std::to_string(id) + " is missing");
    it->second = query.text(0);
  }
  return it->second;
}

FrameRef DbStackSource::frame(FrameId id) const {
  if (auto it = frames_.find(id); it != frames_.end()) return it->second;
  Statement& query = *frame_query_;
  query.start(id);
  if (!query.next_row()) fail("frame " + std::to_string(id) + " is missing");
  StringId ids[7];
  for (int column = 0; column < 7; ++column) ids[column] = static_cast<StringId>(query.integer(column));
  const int64_t line = query.integer(2);
  const FrameRef resolved{string(ids[0]), string(ids[1]), line,          string(ids[3]),
                          string(ids[4]), string(ids[5]), string(ids[6])};
  return frames_.emplace(id, resolved).first->second;
}

}  // namespace snapscope
