// StackSource over a converted elements.db (schema: docs/FORMAT.md), read-only. Stacks,
// frames and strings are fetched on first use and cached, so a tree over a few thousand
// distinct stacks costs a few thousand indexed lookups, not a full table load.
#pragma once

#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/analysis/stack_source.h"

struct sqlite3;
struct sqlite3_stmt;

namespace snapscope {

class DbStackSource final : public StackSource {
 public:
  // Throws InputError("<path>: <reason>") when the file is missing or not an elements.db.
  explicit DbStackSource(const std::string& path);
  ~DbStackSource() override;
  DbStackSource(const DbStackSource&) = delete;
  DbStackSource& operator=(const DbStackSource&) = delete;

  std::span<const FrameId> stack_frames(StackId stack) const override;
  FrameRef frame(FrameId id) const override;

 private:
  class Statement;
  std::string_view string(StringId id) const;
  [[noreturn]] void fail(const std::string& what) const;

  std::string path_;
  sqlite3* db_ = nullptr;
  std::unique_ptr<Statement> stack_query_, frame_query_, string_query_;
  // Node-based maps: cached vectors and strings never move, so returned spans/views stay valid.
  mutable std::unordered_map<StackId, std::vector<FrameId>> stacks_;
  mutable std::unordered_map<FrameId, FrameRef> frames_;
  mutable std::unordered_map<StringId, std::string> strings_;
};

}  // namespace snapscope
