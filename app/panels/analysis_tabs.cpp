// The analysis pane's tab registry: one line per tab, in the order they are shown.
#include "app/compare/compare_panel.h"
#include "app/panels/call_tree_panel.h"
#include "app/panels/category_table_panel.h"
#include "app/panels/findings_panel.h"
#include "app/panels/module_panel.h"
#include "app/panels/moment_panel.h"
#include "app/panels/pane_tab.h"
#include "app/panels/phase_panel.h"

namespace snapscope {

std::vector<TabEntry> analysis_tabs() {
  using Name = script::Tab::Name;
  std::vector<TabEntry> tabs;
  tabs.push_back({"Call tree", Name::CallTree, std::make_unique<CallTreePanel>(TreeDirection::TopDown)});
  tabs.push_back({"Bottom-up", Name::BottomUp, std::make_unique<CallTreePanel>(TreeDirection::BottomUp)});
  tabs.push_back({"Moment table", Name::Moment, std::make_unique<MomentPanel>()});
  tabs.push_back({"Phases", Name::Phases, std::make_unique<PhasePanel>()});
  tabs.push_back({"Categories", Name::Categories, std::make_unique<CategoryTablePanel>()});
  tabs.push_back({"Modules", Name::Modules, std::make_unique<ModulePanel>()});
  tabs.push_back({"Findings", Name::Findings, std::make_unique<FindingsPanel>()});
  tabs.push_back({"Compare", Name::Compare, std::make_unique<ComparePanel>()});
  return tabs;
}

}  // namespace snapscope
