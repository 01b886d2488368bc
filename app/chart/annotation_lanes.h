// external_annotations ranges as labelled bars above the chart, aligned with its x axis; nested
// ranges go on separate lanes (by depth). Clicking a bar selects that phase (phase_panel.h).
// Bars are laid out once per view and table: a frame without a view change only re-emits them.
#pragma once

#include <imgui.h>

#include <cstddef>
#include <utility>
#include <vector>

#include "core/analysis/phase_table.h"
#include "core/session/session.h"

namespace snapscope {

class AnnotationLanes {
 public:
  // Height the lanes need for rows `depth_levels` deep (Session::phase_depth_levels; 0: none).
  static float height(uint32_t depth_levels);
  // Draws `table` at the current cursor position, `lanes_height` tall (height()); x and width
  // are the chart's, in window pixels. The table may still be an older one, or empty.
  void draw(Session& session, const PhaseTable& table, float lanes_height, float chart_x, float chart_width);
  // The labels the last frame drew (window pixels): each inside its bar and the visible chart,
  // none overlapping another; a label that would not fit is elided or dropped.
  struct LabelRect {
    float x0 = 0, y0 = 0, x1 = 0, y1 = 0;
  };
  const std::vector<LabelRect>& label_rects() const { return label_rects_; }

 private:
  void draw_labels(ImDrawList* draw_list, ImVec2 origin, float chart_x, float chart_width);
  struct Bar {
    ImVec2 a, b;  // relative to the lanes' top-left corner
    ImU32 color = 0;
    const PhaseRow* row = nullptr;  // nullptr: a run of sub-pixel bars
  };
  struct Key {
    const PhaseRow* rows = nullptr;
    size_t count = 0;
    const Timeline* timeline = nullptr;
    double x0 = 0, x1 = 0, width_px = 0;
    float chart_width = 0;
    const TimeWarp* warp = nullptr;
    bool operator==(const Key&) const = default;
  };
  void layout(const Session& session, const PhaseTable& table, float chart_width);
  const PhaseRow* row_at(float x, float y) const;  // x, y relative to the lanes

  // Each row's start and end in timesteps, read once per table: state_x is a random access into
  // a per-action array, and tens of thousands of them per view change miss the cache.
  void cache_row_x(const Timeline& timeline, const PhaseTable& table);

  Key key_;
  const Timeline* row_x_timeline_ = nullptr;
  std::vector<std::pair<double, double>> row_x_;
  bool laid_out_ = false;
  std::vector<Bar> bars_;
  std::vector<const PhaseRow*> narrow_rows_;  // per lane and pixel column: the bar painted there
  size_t columns_ = 0;
  std::vector<LabelRect> label_rects_;
};

}  // namespace snapscope
