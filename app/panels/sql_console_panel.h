// The SQL console: a query editor with example queries and history (Ctrl+Up/Down), Run
// (Ctrl+Enter) and Cancel, and the result in a sortable, virtualised table with a row cap.
#pragma once

#include <array>
#include <memory>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "core/sql/sql_console.h"

namespace snapscope {

class SqlConsolePanel {
 public:
  void open(const std::string& db_path);  // empty: closed
  void draw();
  void request_focus() { focus_input_ = true; }
  nlohmann::json json() const;  // the last result's shape (test hook)

 private:
  void draw_toolbar();
  void draw_editor();
  void draw_status() const;
  void draw_table();
  void run();
  void set_text(const std::string& text);

  std::unique_ptr<SqlConsole> console_;
  std::string error_;
  std::array<char, 16384> text_{};
  std::optional<SqlResult> result_;
  std::optional<std::string> browsed_;  // history entry to put into the editor next frame
  bool focus_input_ = false;
  bool sorted_dirty_ = false;
};

}  // namespace snapscope
