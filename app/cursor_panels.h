// Everything that follows the time cursor, wired together: the stack catalog (loaded in the
// background per document), the analysis worker, the search bar, the annotation lanes, and the
// analysis pane's tabs (call tree, bottom-up, moment table, phases, modules). The Application calls it at
// fixed points of its frame; the panels only draw and dispatch, numbers come from core/.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>

#include <nlohmann/json.hpp>

#include "app/annotation_lanes.h"
#include "app/call_tree_panel.h"
#include "app/module_panel.h"
#include "app/moment_panel.h"
#include "app/phase_panel.h"
#include "app/search_panel.h"
#include "core/cursor/analysis_worker.h"
#include "core/session/session.h"
#include "core/view/script.h"

namespace snapscope {

class CursorPanels {
 public:
  // Forgets widget state that belonged to the previous session (tree expansion, search).
  void reset();
  // Asks the session for the cursor's analysis under the pane's options.
  void before_frame(Session& state);
  void draw_search_bar(Session& state);
  float lanes_height(Session& state);
  const AnnotationLanes& lanes() const { return lanes_; }
  void draw_lanes(Session& state, float chart_x, float chart_width);
  // `compare_tab` (when set) draws a Compare tab: a second run is open.
  void draw_analysis_pane(Session& state, float width, float height,
                          const std::function<void()>& compare_tab = {});
  // Headless modes draw until the annotation lanes are in place and the shown tree's search has
  // scrolled to its match.
  bool settled(const Session& state) const;
  PhasePanel& phases() { return phases_; }
  const ModulePanel& modules() const { return modules_; }

  // Headless / test hooks (script commands and Ctrl+J).
  // Computes synchronously if needed; without a document: the load error and the search bar's
  // status text.
  nlohmann::json cursor_json(Session& state);
  bool search(Session& state, const std::string& text);
  SearchPanel& search_panel() { return search_; }
  void select_tab(script::Tab::Name tab) { pending_tab_ = tab; }  // shown from the next frame
  void tree_search(const std::string& text);  // the shown tree's search (call tree by default)

 private:
  AnalysisOptions options() const { return {filter_frames_, location_rule_}; }

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
  ModulePanel modules_;
  AnnotationLanes lanes_;
  SearchPanel search_;
};

}  // namespace snapscope
