// Annotated phases (external_annotations START/END ranges): the phase table from core/analysis
// (memory at start and end, peak inside and where, delta), filtered by name. Selecting a phase
// zooms the chart to it and puts the time cursor on its peak. The annotation lanes above the
// chart draw the same (filtered) table.
//
// A generated 10M-allocation trace has 100k phases: reading them from elements.db and building
// the table takes ~200 ms, so both happen on a background thread; the lanes appear when done
// (and a filter change shows the previous rows until its table is ready).
#pragma once

#include <functional>
#include <future>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/app_state.h"
#include "core/analysis/phase_table.h"

namespace snapscope {

class PhasePanel {
 public:
  // Called from the background thread when something it did is ready to be shown (the app wakes
  // its event loop with it).
  void set_ready_callback(std::function<void()> ready) { ready_ = std::move(ready); }
  // A new document (empty path: none): its annotations are read in the background. Waits for
  // work on the previous document first.
  void open(const std::string& elements_db);
  // Waits for the background build, which reads the current document's timelines: call before
  // that document goes away.
  void wait_idle();
  // The table for the shown timeline and filter is built (headless modes wait for this, so that
  // screenshots and scripts see the lanes); wait_settled blocks for what is in flight.
  bool settled(const AppState& state);
  void wait_settled();
  // The table for the shown timeline and the current filter as far as built: empty (no lanes)
  // until the first one is ready. Starts a build when those change.
  const PhaseTable& table(const AppState& state);
  void draw(AppState& state);

 private:
  using Records = std::shared_ptr<const std::vector<AnnotationRecord>>;
  struct Key {
    const Timeline* timeline = nullptr;
    int device = -1;
    std::string filter;
    bool operator==(const Key&) const = default;
  };
  const Records& records() const;  // null while they are read
  void take_finished_build();
  Key wanted_key(const AppState& state) const;

  std::shared_future<Records> records_loading_;  // shared: get() can be called again
  std::future<PhaseTable> building_;
  Key building_key_;
  PhaseTable table_;
  std::optional<Key> shown_key_;
  char filter_[96] = {};
  size_t selected_ = SIZE_MAX;
  std::function<void()> ready_;
};

// Zooms the chart to the phase's range and puts the cursor on its peak.
void select_phase(AppState& state, const PhaseRow& row);

}  // namespace snapscope
