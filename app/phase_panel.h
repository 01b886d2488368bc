// Annotated phases (external_annotations START/END ranges): the phase table from core/analysis
// (memory at start and end, peak inside and where, delta), filtered by name. Selecting a phase
// zooms the chart to it and puts the time cursor on its peak. The annotation lanes above the
// chart draw the same (filtered) table.
#pragma once

#include <string>
#include <vector>

#include "app/app_state.h"
#include "core/analysis/phase_table.h"

namespace snapscope {

class PhasePanel {
 public:
  void load(std::vector<AnnotationRecord> records);  // a new document's annotations
  // The table for the shown timeline and the current filter (rebuilt only when those change).
  const PhaseTable& table(const AppState& state);
  bool has_annotations() const { return !records_.empty(); }
  void draw(AppState& state);

 private:
  std::vector<AnnotationRecord> records_;
  char filter_[96] = {};
  PhaseTable table_;
  const Timeline* built_for_ = nullptr;
  int built_device_ = -1;
  std::string built_filter_;
  size_t selected_ = SIZE_MAX;
};

// Zooms the chart to the phase's range and puts the cursor on its peak.
void select_phase(AppState& state, const PhaseRow& row);

}  // namespace snapscope
