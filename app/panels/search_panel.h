// The search bar above the chart: a frame substring (function or file) or an address (hex, with
// or without 0x). Matching runs in core (allocation_search.h); matches are outlined on the chart,
// counted, and next / previous (Enter / Shift+Enter, F3 / Shift+F3) move the time cursor and the
// selection to the next or previous match in time.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/cursor/allocation_search.h"
#include "core/session/session.h"

namespace snapscope {

class SearchPanel {
 public:
  // `loading`: the catalog is being read (nothing to search yet, and no error to show instead).
  void draw(Session& session, const StackCatalog* catalog, bool loading);
  // The text beside the field in the last frame ("loading stacks...", "12 matches", or nothing).
  const std::string& shown_status() const { return shown_status_; }
  void reset();
  // Runs a search now (script command); false while stacks are not loaded yet.
  bool search_now(Session& session, const StackCatalog& catalog, const std::string& text);
  const std::string& query() const { return searched_; }
  size_t match_count() const { return matches_.size(); }
  void step(Session& session, bool forward);

 private:
  void refresh(Session& session, const StackCatalog& catalog);

  char text_[160] = {};
  int mode_ = 0;  // SearchMode
  bool focus_ = false;
  std::string searched_;  // text of the current matches
  int searched_mode_ = 0;
  const Timeline* searched_in_ = nullptr;
  std::vector<uint32_t> matches_;
  bool invalid_ = false;
  std::string shown_status_;  // what the last frame wrote beside the field
  std::chrono::steady_clock::time_point edited_at_{};
};

}  // namespace snapscope
