// Everything that follows the time cursor, wired together: the stack catalog (loaded in the
// background per document), the analysis worker, the search bar, the annotation lanes, and the
// analysis pane's tabs (call tree, bottom-up, moment table, phases). The Application calls it at
// fixed points of its frame; the panels only draw and dispatch, numbers come from core/.
#pragma once

#include <cstdint>
#include <functional>
#include <future>
#include <memory>

#include <nlohmann/json.hpp>

#include "app/annotation_lanes.h"
#include "app/app_state.h"
#include "app/call_tree_panel.h"
#include "app/moment_panel.h"
#include "app/phase_panel.h"
#include "app/search_panel.h"
#include "core/cursor/analysis_worker.h"
#include "core/view/script.h"

namespace snapscope {

class CursorPanels {
 public:
  // First thing each frame: a document about to be replaced must not be read by the worker.
  void before_frame(AppState& state);
  void draw_search_bar(AppState& state);
  float lanes_height(const AppState& state);
  void draw_lanes(AppState& state, float chart_x, float chart_width);
  void draw_analysis_pane(AppState& state, float width, float height);
  // Background results (analysis, stack catalog, phase table) wake the event loop through this,
  // so a result never waits for the next mouse move.
  void set_ready_callback(std::function<void()> ready);
  // The event loop polls these while it sleeps: work under way (the stack catalog or an
  // analysis), and a finished result the next frame would show.
  bool background_pending() const;
  bool result_waiting() const;
  // Headless modes draw until the annotation lanes are in place.
  bool settled(const AppState& state) { return phases_.settled(state); }
  PhasePanel& phases() { return phases_; }
  void wait_settled() { phases_.wait_settled(); }

  // Headless / test hooks (script commands and Ctrl+J).
  // Computes synchronously if needed; without a document: the load error and the search bar's
  // status text.
  nlohmann::json cursor_json(AppState& state);
  bool search(AppState& state, const std::string& text);
  SearchPanel& search_panel() { return search_; }
  void select_tab(script::Tab::Name tab) { pending_tab_ = tab; }  // shown from the next frame
  void tree_search(const std::string& text);  // the shown tree's search (call tree by default)

 private:
  void on_new_document(AppState& state);
  void request_analysis(AppState& state);
  const StackCatalog* catalog(bool wait);
  std::shared_ptr<const CursorAnalysis> current_for(AppState& state);  // synchronous

  std::function<void()> ready_;
  const Document* document_ = nullptr;
  std::shared_future<std::shared_ptr<const StackCatalog>> catalog_loading_;
  std::shared_ptr<const StackCatalog> catalog_;
  AnalysisWorker worker_;
  std::optional<AnalysisRequest> requested_;
  std::shared_ptr<const CursorAnalysis> analysis_;
  const Timeline* analysis_timeline_ = nullptr;
  uint64_t generation_ = 0;
  std::optional<size_t> drawn_state_;
  std::optional<script::Tab::Name> pending_tab_;
  script::Tab::Name shown_tab_ =
      script::Tab::Name::CallTree;  // the state whose analysis the pane showed last frame
  bool filter_frames_ = true;
  LocationRule location_rule_ = LocationRule::FirstUserFrame;
  CallTreePanel top_down_{TreeDirection::TopDown};
  CallTreePanel bottom_up_{TreeDirection::BottomUp};
  MomentPanel moment_;
  PhasePanel phases_;
  AnnotationLanes lanes_;
  SearchPanel search_;
};

}  // namespace snapscope
