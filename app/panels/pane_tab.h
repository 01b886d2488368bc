// One tab of the analysis pane, and what every tab is drawn from. A tab draws from the Session
// (and the cursor's analysis it computed) and keeps widget state only; the pane calls its hooks:
// draw while it is the shown tab, reset when the session is replaced, settled while it is shown
// (headless modes wait for it). A new tab is a PaneTab and one line in analysis_tabs()
// (analysis_tabs.cpp): its label, its script name (`tab NAME`) and the object.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "core/session/comparison.h"
#include "core/session/session.h"
#include "core/view/script.h"

namespace snapscope {

struct TabFrame {
  Session& session;
  const CursorAnalysis* shown;  // the cursor's analysis, when it is of the shown timeline
  uint64_t generation;          // Session::analysis_generation(): changes with every result
  AnalysisOptions& options;     // the pane's toggles (frame filter, location rule), shared by its tabs
  Comparison* compared;         // run B, when one is open
};

class PaneTab {
 public:
  virtual ~PaneTab() = default;
  virtual void draw(TabFrame& frame) = 0;
  virtual void reset() {}                                         // the session was replaced
  virtual bool settled(const Session&) const { return true; }     // nothing it shows is pending
  virtual bool available(const TabFrame&) const { return true; }  // drawn at all (Compare: run B)
};

struct TabEntry {
  const char* label;
  script::Tab::Name script_name;
  std::unique_ptr<PaneTab> tab;
};

// The analysis pane's tabs, in the order they are shown.
std::vector<TabEntry> analysis_tabs();

}  // namespace snapscope
