// Memory per annotated phase (e.g. Optimizer.step, zero_grad): each START/END interval mapped
// onto Timeline states by time, with the live bytes at its start and end and the peak inside.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/analysis/annotation_pairing.h"
#include "core/timeline/timeline.h"

namespace snapscope {

// Maps a time to a state: the memory just before the first action with time_us >= the time
// (actions without time never match; past the last action: the final state).
class ActionClock {
 public:
  explicit ActionClock(const Timeline& timeline);
  bool has_times() const { return has_times_; }
  size_t state_at_time(int64_t time_us) const;

 private:
  // Running maximum of action times, so lookup can bisect: the timeline's own times when they
  // never decrease (the usual case; no copy per action), else latest_time_.
  const ActionTimes& sorted() const { return timeline_times_ != nullptr ? *timeline_times_ : latest_time_; }
  const ActionTimes* timeline_times_ = nullptr;
  ActionTimes latest_time_;
  bool has_times_ = false;
};

// How many depth levels the rows of build_phase_table(timeline, pairing, name_filter) take (the
// deepest row's depth + 1; 0 for no rows), from the pairing alone, given
// timed = timeline.input().has_action_times(): the viewer sizes the lanes above the chart before
// the table is built.
uint32_t phase_depth_levels(const AnnotationPairing& pairing, std::string_view name_filter, bool timed);

struct PhaseRow {
  std::string name;
  uint32_t depth = 0;
  int64_t start_time_us = kNoTime, end_time_us = kNoTime;
  size_t start_state = 0, end_state = 0;
  int64_t start_event = -1,
          end_event = -1;  // raw event of the first action at/after the time; -1 past the end
  uint64_t start_bytes = 0, end_bytes = 0;
  uint64_t peak_bytes = 0;  // largest live total over states [start_state, end_state]
  size_t peak_state = 0;
  int64_t peak_event = -1;  // the event whose action reached the peak; -1 if already live at the start
  int64_t delta_bytes() const { return int64_t(end_bytes) - int64_t(start_bytes); }
};

// The rows of one annotation name at one depth, repeated (a compiled graph's 867
// `pad_mm_benchmark`s, every step's `ProfilerStep#k`): shown as one row "name ×count" that
// spans from the first one's start to the last one's end, with the highest peak among them.
struct PhaseGroup {
  PhaseRow span;              // start of the first, end of the last, the highest peak of all
  size_t count = 0;           // rows in the group
  size_t first_row = 0;       // index in PhaseTable::rows
  size_t peak_row = 0;        // the row whose peak is span's (the first of equal peaks)
  std::string label() const;  // "name" or "name ×count"
};

struct PhaseTable {
  bool has_times = true;  // false: the trace has no time_us, so annotations cannot be placed
  size_t intervals = 0;   // paired START/END intervals, before the name filter
  std::vector<PhaseRow> rows;
  std::vector<PhaseGroup> groups;  // group_phases(rows)
  std::vector<AnnotationRecord> unmatched;
};

// Keeps the intervals whose name contains name_filter (empty: all).
PhaseTable build_phase_table(const Timeline& timeline, const AnnotationPairing& pairing,
                             std::string_view name_filter = {});

// Rows grouped by (name, depth), in the order each name first appears.
std::vector<PhaseGroup> group_phases(const std::vector<PhaseRow>& rows);

// "Start  End  Peak  Delta  Events  Peak at  Phase" per group of repeated phases (at most
// `top`, 0 = all, then a line saying how many more) plus a line per unmatched annotation (as
// many), or a note when the trace has no time_us.
std::string phase_table_text(const PhaseTable& table, size_t top = 0);

}  // namespace snapscope
