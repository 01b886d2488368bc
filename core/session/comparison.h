// Two runs compared (snapscope A B, File > Compare with...): run B's Session beside the active
// run A, the alignment of B's blocks timeline to A's shown timeline (events, time or matching
// annotations), and the diff of the two runs at A's cursor and B's aligned moment (the two peaks
// before a cursor is placed) by location, category and call path, computed as a background
// result. A chosen row's allocations are highlighted in both runs, again at every new moment.
// Nothing here draws: the viewer's Compare tab and overlay read it (app/compare), like a Session.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/analysis/live_elements.h"
#include "core/compare/call_tree_diff.h"
#include "core/compare/moment_diff.h"
#include "core/compare/run_alignment.h"
#include "core/session/background_result.h"
#include "core/session/session.h"

namespace snapscope {

// The two moments a diff is of, and the classifications it used (when both runs had one).
struct ComparedMoments {
  const Timeline* a_timeline = nullptr;
  const Timeline* b_timeline = nullptr;
  size_t a_state = 0, b_state = 0;
  bool at_peaks = true;  // no cursor: each run's own peak
  const SessionCategories* a_categories = nullptr;
  const SessionCategories* b_categories = nullptr;
  bool operator==(const ComparedMoments&) const = default;
};

// One run at its compared moment: the live set, each live allocation's location, its call tree.
struct ComparedSide {
  std::shared_ptr<const StackCatalog> catalog;
  std::shared_ptr<const SessionCategories> categories;  // null until classified
  std::vector<LiveElement> live;
  std::vector<std::string> locations;  // parallel to live
  std::optional<CallTree> tree;        // top-down, filtered frames
};

struct ComparisonDiff {
  ComparedMoments at;
  ComparedSide a, b;
  MomentDiff by_location;
  MomentDiff by_category;  // empty until both runs are classified
  CallTreeDiff by_path;
};

enum class CompareGrouping : uint8_t { Location, Category, CallPath };

// A row of the diff whose allocations are highlighted in both runs.
struct CompareHighlight {
  CompareGrouping grouping = CompareGrouping::Location;
  std::string label;  // a location or category name; for call paths the path's text
  bool operator==(const CompareHighlight&) const = default;
};

class Comparison {
 public:
  // `a` must outlive the comparison, or be replaced first (rebind_a). `ready` runs on a worker
  // thread when a diff lands (the viewer wakes its event loop with it).
  Comparison(Session& a, std::unique_ptr<Session> b, std::function<void()> ready = {});
  ~Comparison();  // cancels the diff being computed
  Comparison(const Comparison&) = delete;
  Comparison& operator=(const Comparison&) = delete;

  Session& a() const { return *a_; }
  Session& b() const { return *b_; }
  // Run A was replaced by another file: everything derived from the old one is forgotten (the
  // diff being computed is cancelled before the old run can go away).
  void rebind_a(Session& a);

  void set_mode(AlignMode mode);
  AlignMode mode() const { return mode_; }
  // B's blocks timeline aligned to A's shown timeline: null until both have one. Built again
  // when either timeline changes and once both runs' annotations have been read.
  const RunAlignment* alignment();

  // The newest diff taken (maybe for older moments, while the wanted one is computed), null
  // before the first; requests the one at the current moments.
  std::shared_ptr<const ComparisonDiff> diff();
  // Both runs settled and the diff at the current moments (scripts, tests).
  std::shared_ptr<const ComparisonDiff> diff_now();
  // Takes run B's background results and a finished diff; true when something arrived.
  bool poll();
  bool computing() const { return build_.running(); }  // a diff is being computed
  bool result_waiting() const { return build_.finished() || b_->result_waiting(); }
  bool settled() const { return !build_.running() && b_->settled(); }

  // Highlights a row's allocations in both runs (at every new diff too); nullopt clears it.
  void highlight(std::optional<CompareHighlight> row);
  const std::optional<CompareHighlight>& highlighted() const { return highlighted_; }

  // Stacked charts: puts B's view under A's (aligned x range, A's byte scale) and B's cursor at
  // A's aligned moment; call before drawing B's chart.
  void follow_a();

  // `shown` (a diff of this comparison) as one JSON object (script print-compare): moments, peaks,
  // live totals and the first rows of each grouping; `path_rows` are the call-path rows shown, in
  // display order.
  nlohmann::json json(const ComparisonDiff& shown, std::span<const uint32_t> path_rows);

 private:
  std::optional<ComparedMoments> wanted();  // the moments the diff should be at now
  void start(const ComparedMoments& at);
  bool take_finished();  // true when a diff was taken just now
  void adopt_result();   // the diff just taken becomes the shown one
  void apply_highlight();

  Session* a_;
  std::unique_ptr<Session> b_;
  std::function<void()> ready_;
  AlignMode mode_ = AlignMode::Steps;
  std::unique_ptr<RunAlignment> alignment_;
  const Timeline* aligned_a_ = nullptr;
  const Timeline* aligned_b_ = nullptr;
  bool aligned_with_annotations_ = false;
  BackgroundResult<const ComparisonDiff> build_;  // one at a time: a stale one finishes first
  std::shared_ptr<const ComparisonDiff> diff_;    // the newest taken
  std::optional<CompareHighlight> highlighted_;
};

}  // namespace snapscope
