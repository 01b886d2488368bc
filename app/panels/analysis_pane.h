// Everything that follows the time cursor, wired together: the search bar, the annotation lanes,
// the peak answer and the analysis pane's tabs (analysis_tabs(): call tree, bottom-up, moment
// table, phases, categories, modules, findings, compare). The Application calls it at fixed points
// of its frame; the tabs only draw from the Session (pane_tab.h).
#pragma once

#include <cstdint>
#include <memory>

#include <nlohmann/json.hpp>

#include "app/chart/annotation_lanes.h"
#include "app/compare/compare_panel.h"
#include "app/panels/call_tree_panel.h"
#include "app/panels/module_panel.h"
#include "app/panels/pane_tab.h"
#include "app/panels/phase_panel.h"
#include "app/panels/search_panel.h"
#include "core/session/session.h"
#include "core/view/script.h"

namespace snapscope {

class AnalysisPane {
 public:
  AnalysisPane();
  // Forgets widget state that belonged to the previous session (every tab's, the search).
  void reset();
  // Asks the session for the cursor's analysis under the pane's options.
  void before_frame(Session& session);
  void draw_search_bar(Session& session);
  float lanes_height(Session& session);
  const AnnotationLanes& lanes() const { return lanes_; }
  void draw_lanes(Session& session, float chart_x, float chart_width);
  // `compared`: run B is open (the Compare tab is drawn).
  void draw_analysis_pane(Session& session, float width, float height, Comparison* compared);
  // Headless modes draw until the annotation lanes are in place and the shown tab has nothing
  // pending (a tree's search scrolled to its match, the module tree at the cursor).
  bool settled(const Session& session) const;
  PhasePanel& phases() { return tab<PhasePanel>(script::Tab::Name::Phases); }
  const ModulePanel& modules() { return tab<ModulePanel>(script::Tab::Name::Modules); }
  ComparePanel& compare_panel() { return tab<ComparePanel>(script::Tab::Name::Compare); }

  // Headless / test hooks (script commands and Ctrl+J).
  // Computes synchronously if needed; without a document: the load error and the search bar's
  // status text.
  nlohmann::json cursor_json(Session& session);
  bool search(Session& session, const std::string& text);
  SearchPanel& search_panel() { return search_; }
  void select_tab(script::Tab::Name tab) { pending_tab_ = tab; }  // shown from the next frame
  void tree_search(const std::string& text);  // the shown tree's search (call tree by default)

 private:
  AnalysisOptions options() const { return options_; }
  const TabEntry& entry(script::Tab::Name name) const;
  // The registered tab of that name, as what analysis_tabs() made it.
  template <class Tab>
  Tab& tab(script::Tab::Name name) const {
    return dynamic_cast<Tab&>(*entry(name).tab);
  }
  CallTreePanel& shown_tree() const;  // the bottom-up tree when it is shown, else the call tree

  std::vector<TabEntry> tabs_ = analysis_tabs();
  std::optional<size_t> drawn_state_;  // the state whose analysis the pane showed last frame
  std::optional<script::Tab::Name> pending_tab_;
  script::Tab::Name shown_tab_ = script::Tab::Name::CallTree;
  AnalysisOptions options_;
  AnnotationLanes lanes_;
  SearchPanel search_;
};

}  // namespace snapscope
