#include "core/cursor/stack_catalog.h"

#include <stdexcept>

#include "core/snapshot/snapshot_reader.h"
#include "core/store/elements_db/sqlite_handle.h"

namespace snapscope {

StackCatalog::StackCatalog(std::vector<std::string> strings, std::vector<CatalogFrame> frames,
                           std::vector<uint64_t> stack_begin, std::vector<FrameId> stack_frames)
    : strings_(std::move(strings)),
      frames_(std::move(frames)),
      stack_begin_(std::move(stack_begin)),
      stack_frames_(std::move(stack_frames)) {
  if (stack_begin_.empty()) stack_begin_.push_back(0);
}

std::span<const FrameId> StackCatalog::stack_frames(StackId stack) const {
  if (size_t{stack} + 1 >= stack_begin_.size()) return {};
  return std::span<const FrameId>(stack_frames_)
      .subspan(stack_begin_[stack], stack_begin_[stack + 1] - stack_begin_[stack]);
}

FrameRef StackCatalog::frame(FrameId id) const {
  if (id >= frames_.size()) return {};
  const CatalogFrame& ids = frames_[id];
  return FrameRef{string(ids.name),
                  string(ids.filename),
                  ids.line,
                  string(ids.fx_node_op),
                  string(ids.fx_node_name),
                  string(ids.fx_node_target),
                  string(ids.fx_original_trace)};
}

std::shared_ptr<const StackCatalog> catalog_from_snapshot(const Snapshot& snapshot) {
  std::vector<std::string> strings;
  strings.reserve(snapshot.strings.size());
  for (StringId id = 0; id < snapshot.strings.size(); ++id) strings.emplace_back(snapshot.strings.view(id));
  std::vector<CatalogFrame> frames;
  frames.reserve(snapshot.frames.size());
  for (FrameId id = 0; id < snapshot.frames.size(); ++id) {
    const Frame& f = snapshot.frames.get(id);
    frames.push_back(
        {f.name, f.filename, f.line, f.fx_node_op, f.fx_node_name, f.fx_node_target, f.fx_original_trace});
  }
  std::vector<uint64_t> begin{0};
  std::vector<FrameId> stack_frames;
  for (StackId id = 0; id < snapshot.stacks.size(); ++id) {
    const std::span<const FrameId> frames_of = snapshot.stacks.frames(id);
    stack_frames.insert(stack_frames.end(), frames_of.begin(), frames_of.end());
    begin.push_back(stack_frames.size());
  }
  return std::make_shared<StackCatalog>(std::move(strings), std::move(frames), std::move(begin),
                                        std::move(stack_frames));
}

namespace {

// Tables are keyed by dense ids written in order, so a row's id is its index.
size_t checked_index(int64_t id, size_t expected, const std::string& path, const char* table) {
  if (id < 0 || static_cast<size_t>(id) != expected) {
    throw InputError(path + ": table " + table + " has a gap at id " + std::to_string(expected));
  }
  return expected;
}

std::vector<std::string> read_strings(SqliteDatabase& db) {
  std::vector<std::string> strings;
  SqliteStatement rows = db.prepare("SELECT id, text FROM strings ORDER BY id");
  while (rows.next_row()) {
    checked_index(rows.column_int(0), strings.size(), db.path(), "strings");
    strings.push_back(rows.column_text(1));
  }
  return strings;
}

std::vector<CatalogFrame> read_frames(SqliteDatabase& db) {
  std::vector<CatalogFrame> frames;
  SqliteStatement rows = db.prepare(
      "SELECT id, name, filename, line, fx_node_op, fx_node_name, fx_node_target, fx_original_trace "
      "FROM frames ORDER BY id");
  auto id_at = [&](int column) { return static_cast<StringId>(rows.column_int(column)); };
  while (rows.next_row()) {
    checked_index(rows.column_int(0), frames.size(), db.path(), "frames");
    frames.push_back({id_at(1), id_at(2), rows.column_int(3), id_at(4), id_at(5), id_at(6), id_at(7)});
  }
  return frames;
}

void read_stacks(SqliteDatabase& db, std::vector<uint64_t>& begin, std::vector<FrameId>& frames) {
  begin.assign(1, 0);
  SqliteStatement rows = db.prepare("SELECT stack_id, frame_id FROM stacks ORDER BY stack_id, depth");
  while (rows.next_row()) {
    const int64_t stack = rows.column_int(0);
    if (stack < 0 || static_cast<uint64_t>(stack) + 2 < begin.size()) {
      throw InputError(db.path() + ": stacks table out of order");
    }
    // Every stack but the empty one (id 0) has rows, so ids never run ahead of the rows read: a
    // crafted id of 2^40 is an error, not an attempt to allocate a range for every id below it.
    if (static_cast<uint64_t>(stack) > frames.size() + 1) {
      throw InputError(db.path() + ": stacks table has a gap before stack " + std::to_string(stack));
    }
    // Stacks without rows (the empty stack) get empty ranges.
    while (begin.size() < static_cast<size_t>(stack) + 2) begin.push_back(frames.size());
    frames.push_back(static_cast<FrameId>(rows.column_int(1)));
    begin.back() = frames.size();
  }
}

}  // namespace

std::shared_ptr<const StackCatalog> catalog_from_elements_db(const std::string& path) {
  try {
    SqliteDatabase db(path, SqliteDatabase::Mode::ReadOnly);
    std::vector<std::string> strings = read_strings(db);
    std::vector<CatalogFrame> frames = read_frames(db);
    std::vector<uint64_t> begin;
    std::vector<FrameId> stack_frames;
    read_stacks(db, begin, stack_frames);
    return std::make_shared<StackCatalog>(std::move(strings), std::move(frames), std::move(begin),
                                          std::move(stack_frames));
  } catch (const InputError&) {
    throw;
  } catch (const std::runtime_error& failure) {
    throw InputError(failure.what());  // SQLite errors already name the file
  }
}

}  // namespace snapscope
