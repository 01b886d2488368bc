// The memory timeline in cells: one column per character cell, each the highest total inside it
// (the same MemoryPyramid column peaks as the viewer's level of detail, so no peak hides), drawn
// with eighth blocks (or '#' in ASCII), a y axis in binary units, the phases (annotations) as a
// lane above and event numbers below; the cursor's column reversed; reserved memory and run B's
// total as lines when asked.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "core/allocator/usage_curve.h"
#include "core/compare/run_alignment.h"
#include "core/session/session.h"
#include "term/term_layout.h"
#include "term/terminal.h"

namespace snapscope::term {

// Run B of a comparison as the chart needs it.
struct ChartRunB {
  const Timeline* blocks = nullptr;
  const RunAlignment* alignment = nullptr;
};

class TimelineChart {
 public:
  static constexpr int kAxisCells = 10;  // the y axis labels' width

  void draw(const Terminal& terminal, Session& session, Rect area, const ChartRunB& run_b);

  // The plot's cells (without axes and lane) in the last draw.
  const Rect& plot() const { return plot_; }
  // The state a cursor on plot column `column` stands for: the highest state drawn there.
  std::optional<size_t> state_at_column(const Session& session, int column) const;
  // The plot column the cursor's state is drawn in, or none when it is outside the view.
  std::optional<int> cursor_column(const Session& session) const;

  bool show_reserved = false;
  bool raise_floor = false;  // y from the lowest total in view instead of 0 (the viewer's L)

 private:
  void draw_bars(const Terminal& terminal, int cursor) const;
  void draw_line(const Terminal& terminal, const std::vector<uint64_t>& bytes, const char* glyph,
                 Ink ink) const;
  void draw_y_axis(const Terminal& terminal, Rect area) const;
  void draw_x_axis(const Terminal& terminal, const Session& session, int row) const;
  void draw_phases(const Terminal& terminal, Session& session, int row) const;
  int row_of(uint64_t bytes) const;  // plot row (0 = top) whose cell holds `bytes`, or -1

  Rect plot_;
  double y0_ = 0, y1_ = 1;
  std::vector<MemoryExtent> columns_;
  std::unique_ptr<UsageCurve> usage_;
  const Timeline* usage_for_ = nullptr;
};

}  // namespace snapscope::term
