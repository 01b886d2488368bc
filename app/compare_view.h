// Two runs compared (snapscope A B). Run B is shown either as its total and reserved curves over
// A's chart, or as its own chart below A's (stacked): B's view follows A's x through the
// alignment (events, time or matching annotations) and keeps A's byte scale, and A's cursor
// drives B's. The Compare tab shows the diff of the two runs at A's cursor and B's aligned
// moment (the two peaks before a cursor is placed) by location, by category or by call path,
// sorted by |B - A|, new and vanished rows marked; clicking a row highlights its allocations in
// both runs. The diff is computed on a worker thread; numbers come from core/compare.
#pragma once

#include <cstdint>
#include <functional>
#include <future>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/compare/call_tree_diff.h"
#include "core/compare/moment_diff.h"
#include "core/compare/run_alignment.h"
#include "core/session/session.h"

namespace snapscope {

class CompareView {
 public:
  enum class Layout : uint8_t { Overlay, Stacked };
  enum class Grouping : uint8_t { Location, Category, CallPath };

  struct Side;  // one run's live set and groupings at its compared moment (compare_view.cpp)
  struct Diff;  // both sides and their diffs, computed on the worker

  CompareView() = default;
  ~CompareView();  // waits for a diff being computed
  CompareView(const CompareView&) = delete;
  CompareView& operator=(const CompareView&) = delete;

  void reset();  // either run changed or closes: waits for the worker, forgets everything
  void set_mode(AlignMode mode);
  AlignMode mode() const { return mode_; }
  void set_layout(Layout layout) { layout_ = layout; }
  Layout layout() const { return layout_; }
  void set_grouping(Grouping grouping);
  Grouping grouping() const { return grouping_; }

  // Overlay layout: B's curves over A's chart rectangle.
  void draw_overlay(Session& a, Session& b, float x, float y, float width, float height);
  // Stacked layout: puts B's view under A's (aligned x range, A's y range) and B's cursor at A's
  // aligned moment; call before drawing B's chart. Then the name of B over its chart.
  void follow_a(Session& a, Session& b);
  void draw_b_label(const Session& b, float x, float y) const;

  void draw_panel(Session& a, Session& b);
  // Clicks row `index` of the shown grouping (call paths: in display order, only expanded rows);
  // waits for the diff. False when there is no such row.
  bool click_row(Session& a, Session& b, size_t index);
  bool settled() const;         // no diff is being computed
  bool result_waiting() const;  // a computed diff waits to be shown (draw a frame)
  // The panel's content as one JSON object (script print-compare); waits for stacks and categories.
  nlohmann::json compare_json(Session& a, Session& b);

 private:
  // The overlay's key (B's file, colours, alignment) and a note on what of B falls off A's axis;
  // returns where the next note goes.
  float draw_b_legend(const Session& b, const RunAlignment& aligned, float x, float y, float width) const;
  // A marker at B's peak on A's axis, or a note saying why it cannot be shown.
  void draw_b_peak(const Session& a, const Session& b, const RunAlignment& aligned, float x, float width,
                   float text_y, const std::function<float(uint64_t)>& to_y) const;
  struct Key {
    size_t a_state = 0, b_state = 0;
    bool at_peaks = true;
    const Timeline* a_timeline = nullptr;
    const Timeline* b_timeline = nullptr;
    const SessionCategories* a_categories = nullptr;
    const SessionCategories* b_categories = nullptr;
    bool operator==(const Key&) const = default;
  };
  struct Highlight {
    Grouping grouping = Grouping::Location;
    std::string label;       // location or category name
    uint32_t path_node = 0;  // call paths: the node in the diff it was clicked in
    std::string path;        // call paths: its path text, to find it again in a newer diff
  };

  const RunAlignment* alignment(Session& a, Session& b);
  std::optional<Key> wanted_key(Session& a, Session& b);
  // The newest finished diff (maybe for an older key); starts computing the wanted one. `wait`:
  // block until the wanted one is ready.
  std::shared_ptr<const Diff> diff(Session& a, Session& b, bool wait);
  void start(const Key& key, Session& a, Session& b);
  void take_finished(bool wait);

  void apply_highlight(Session& a, Session& b);
  void highlight(Session& a, Session& b, Highlight chosen);
  void draw_summary(Session& a, Session& b, const Diff& shown);
  void draw_rows(Session& a, Session& b, const MomentDiff& rows, Grouping grouping);
  void draw_path_rows(Session& a, Session& b, const Diff& shown);
  void draw_path_node(Session& a, Session& b, const CallTreeDiff& tree, uint32_t id);
  std::vector<uint32_t> shown_path_rows(const CallTreeDiff& tree) const;
  void open_default_paths(const CallTreeDiff& tree);

  AlignMode mode_ = AlignMode::Steps;
  Layout layout_ = Layout::Overlay;
  Grouping grouping_ = Grouping::Location;
  std::unique_ptr<RunAlignment> alignment_;
  const Timeline* aligned_a_ = nullptr;
  const Timeline* aligned_b_ = nullptr;
  bool aligned_with_annotations_ = false;

  std::shared_ptr<const Diff> diff_;  // the newest finished
  std::future<std::shared_ptr<const Diff>> pending_;
  std::optional<Key> pending_key_;
  std::optional<Highlight> highlighted_;
  std::set<std::string> open_paths_;  // expanded call-path rows (path texts survive a new diff)
  bool paths_toggled_ = false;        // the user opened or closed one: no more default opening
};

}  // namespace snapscope
