// Annotated phases (external_annotations START/END ranges): the phase table from core/analysis
// (memory at start and end, peak inside and where, delta), filtered by name. Selecting a phase
// zooms the chart to it and puts the time cursor on its peak. The annotation lanes above the
// chart draw the same (filtered) table.
//
// A generated 10M-allocation trace has 100k phases: reading them from elements.db and building
// the table takes ~200 ms, so the Session does both in the background; the lanes appear when
// done (and a filter change shows the previous rows until its table is ready).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "app/panels/pane_tab.h"
#include "core/analysis/phase_table.h"
#include "core/session/session.h"

namespace snapscope {

class PhasePanel final : public PaneTab {
 public:
  void draw(TabFrame& frame) override { draw(frame.session); }
  void reset() override;  // a new session: the selection and filter text belong to the old one
  // The session has built the table for the shown timeline and the current filter (headless
  // modes wait for this, so that screenshots and scripts see the lanes).
  bool settled(const Session& session) const override;
  // The table for the shown timeline and the current filter as far as built: empty (no lanes)
  // until the first one is ready. The session builds it in the background.
  const PhaseTable& table(Session& session);
  std::string filter() const { return filter_; }  // the name filter typed above the table
  void draw(Session& session);

 private:
  char filter_[96] = {};
  size_t selected_ = SIZE_MAX;
};

// Zooms the chart to the phase's range and puts the cursor on its peak.
void select_phase(Session& session, const PhaseRow& row);

}  // namespace snapscope
