// Puts two runs on one x axis: for a moment of run A, the moment of run B it corresponds to.
//   - events: the same raw trace event number;
//   - time: the same time since each trace's first event;
//   - steps: matching annotations (the n-th Optimizer.step, ProfilerStep#k, forward/backward
//     ranges of the same name) are put at the same x, and moments between two such anchors are
//     interpolated by action.
// Steps falls back to events when the runs share no annotation, time to events without
// timestamps; effective_mode() says which is used.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "core/analysis/annotation_pairing.h"
#include "core/analysis/phase_table.h"
#include "core/timeline/timeline.h"

namespace snapscope {

// The steps of a run, as [start state, end state] in order: from one start of its most repeated
// annotation (ProfilerStep#k counted as one name; on a tie, the one that starts first) to the
// next start, the last to the end of the trace. Empty when no annotation repeats or the trace has
// no timestamps.
std::vector<std::pair<size_t, size_t>> step_ranges(const Timeline& timeline,
                                                   std::span<const AnnotationRecord> annotations);

enum class AlignMode : uint8_t { Events, Time, Steps };
const char* align_mode_name(AlignMode mode);  // "events", "time", "steps"

class RunAlignment {
 public:
  RunAlignment(const Timeline& a, const Timeline& b, AlignMode mode,
               std::span<const AnnotationRecord> annotations_a,
               std::span<const AnnotationRecord> annotations_b);

  // B's state for A's state `a_state` (clamped to B's states).
  size_t b_state(size_t a_state) const;
  // The first A state that B's `b_state` lines up with, or none when B's state falls before A's
  // first or after A's last state under this alignment (it is off A's axis). b_state() never
  // decreases as A's state grows, so this is a binary search.
  std::optional<size_t> a_state_for(size_t b_state) const;
  // B's states A's axis reaches: [b_state(0), b_state(A's last state)].
  std::pair<size_t, size_t> b_reached() const;
  AlignMode requested_mode() const { return requested_; }
  AlignMode effective_mode() const { return effective_; }
  size_t anchor_count() const { return anchors_.size(); }  // steps: matched annotation edges

 private:
  size_t by_event(size_t a_state) const;
  size_t by_time(size_t a_state) const;
  size_t by_anchors(size_t a_state) const;

  const Timeline& a_;
  const Timeline& b_;
  ActionClock clock_b_;
  AlignMode requested_, effective_;
  std::vector<std::pair<size_t, size_t>> anchors_;  // (A state, B state), both increasing
};

}  // namespace snapscope
