// The Compare tab and run B's overlay or label over A's chart, drawn from a core/session
// Comparison (run B, alignment, the diff at A's cursor): B's total and reserved curves over A's
// chart, or B's own chart below A's (stacked); the diff by location, category or call path,
// sorted by |B - A|, new and vanished rows marked; clicking a row highlights its allocations in
// both runs. Keeps widget state only (layout, grouping, which call paths are open).
#pragma once

#include <cstdint>
#include <functional>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/panels/pane_tab.h"
#include "core/session/comparison.h"

namespace snapscope {

class ComparePanel final : public PaneTab {
 public:
  enum class Layout : uint8_t { Overlay, Stacked };

  // The Compare tab, while run B is open.
  void draw(TabFrame& frame) override { draw_panel(*frame.compared); }
  bool available(const TabFrame& frame) const override { return frame.compared != nullptr; }
  void reset() override;  // run A or B changed or closed: forgets the widget state
  void set_layout(Layout layout) { layout_ = layout; }
  Layout layout() const { return layout_; }
  void set_grouping(CompareGrouping grouping) { grouping_ = grouping; }
  CompareGrouping grouping() const { return grouping_; }

  // Overlay layout: B's curves over A's chart rectangle.
  void draw_overlay(Comparison& compared, float x, float y, float width, float height);
  // Stacked layout: the name of B over its chart (after Comparison::follow_a and B's chart).
  void draw_b_label(Comparison& compared, float x, float y) const;

  void draw_panel(Comparison& compared);
  // Clicks row `index` of the shown grouping (call paths: in display order, only expanded rows);
  // waits for the diff. False when there is no such row.
  bool click_row(Comparison& compared, size_t index);
  // The panel's content as one JSON object (script print-compare); waits for the diff.
  nlohmann::json compare_json(Comparison& compared);

 private:
  // The overlay's key (B's file, colours, alignment) and a note on what of B falls off A's axis;
  // returns where the next note goes.
  float draw_b_legend(const Session& b, const RunAlignment& aligned, float x, float y, float width) const;
  // A marker at B's peak on A's axis, or a note saying why it cannot be shown.
  void draw_b_peak(const Session& a, const Session& b, const RunAlignment& aligned, float x, float width,
                   float text_y, const std::function<float(uint64_t)>& to_y) const;

  void draw_summary(const Comparison& compared, const ComparisonDiff& shown);
  void draw_controls(Comparison& compared, const ComparisonDiff& shown);
  void draw_rows(Comparison& compared, const MomentDiff& rows, CompareGrouping grouping);
  void draw_path_rows(Comparison& compared, const ComparisonDiff& shown);
  void draw_path_node(Comparison& compared, const CallTreeDiff& tree, uint32_t id);
  std::vector<uint32_t> shown_path_rows(const CallTreeDiff& tree) const;
  void open_default_paths(const CallTreeDiff& tree);

  Layout layout_ = Layout::Overlay;
  CompareGrouping grouping_ = CompareGrouping::Location;
  std::set<std::string> open_paths_;  // expanded call-path rows (path texts survive a new diff)
  bool paths_toggled_ = false;        // the user opened or closed one: no more default opening
};

}  // namespace snapscope
