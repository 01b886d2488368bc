// The analysis pane's Findings tab: what the snapshot says, one entry per finding (core/findings),
// each with a button that puts the cursor and the selection where it points.
#pragma once

#include "app/panels/pane_tab.h"
#include "core/session/session.h"

namespace snapscope {

void draw_findings_panel(Session& session);

class FindingsPanel final : public PaneTab {
 public:
  void draw(TabFrame& frame) override { draw_findings_panel(frame.session); }
};

}  // namespace snapscope
