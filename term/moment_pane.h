// The moment table at the cursor (rows by location, summing to the live bytes) and, under a row,
// its allocations: size, alloc and free events, category; Enter on one shows its stack (the
// Session's selection), 'a' / 'x' put the cursor at its alloc or its free; 'q' goes back.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/session/session.h"
#include "term/term_layout.h"
#include "term/terminal.h"

namespace snapscope::term {

class MomentPane {
 public:
  void set_analysis(std::shared_ptr<const CursorAnalysis> analysis);
  void draw(const Terminal& terminal, Rect area, const Session& session);
  bool key(int ch, Session& session);
  // The first row as the table prints it ("" before the analysis): what tests compare with --report.
  std::string first_row_label() const;

 private:
  void draw_rows(const Terminal& terminal, Rect area) const;
  void draw_allocations(const Terminal& terminal, Rect area, const Session& session) const;

  std::shared_ptr<const CursorAnalysis> analysis_;
  size_t selected_ = 0;
  mutable size_t top_ = 0;
  int page_ = 10;
  // The allocations of the row opened with Enter (element ids of the shown timeline).
  std::string opened_label_;
  std::vector<uint32_t> allocations_;
  size_t allocation_ = 0;
  mutable size_t allocation_top_ = 0;
  bool in_allocations_ = false;
};

}  // namespace snapscope::term
