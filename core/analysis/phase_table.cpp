#include "core/analysis/phase_table.h"

#include <algorithm>
#include <map>

#include "core/analysis/state_mapping.h"
#include "core/analysis/state_peaks.h"
#include "core/analysis/text_table.h"
#include "core/util/format.h"

namespace snapscope {

ActionClock::ActionClock(const Timeline& timeline) {
  const ActionTimes& times = timeline.input().action_time_us;
  if (std::is_sorted(times.begin(), times.end())) {
    timeline_times_ = &times;
  } else {
    latest_time_.reserve(times.size());
    int64_t latest = kNoTime;
    for (int64_t time : times) {
      latest = std::max(latest, time);
      latest_time_.push_back(latest);
    }
  }
  has_times_ = !sorted().empty() && sorted().back() != kNoTime;
}

size_t ActionClock::state_at_time(int64_t time_us) const {
  const ActionTimes& times = sorted();
  return static_cast<size_t>(std::lower_bound(times.begin(), times.end(), time_us) - times.begin());
}

namespace {

// The intervals build_phase_table makes rows of.
bool placed_phase(const AnnotationInterval& interval, std::string_view name_filter) {
  return interval.name.find(name_filter) != std::string::npos && interval.start_time_us != kNoTime &&
         interval.end_time_us != kNoTime;
}

int64_t first_event_at(const Timeline& timeline, size_t state) {
  return state < timeline.action_count() ? timeline.action_event(state) : -1;
}

PhaseRow phase_row(const Timeline& timeline, const ActionClock& clock, const StatePeaks& peaks,
                   const AnnotationInterval& interval) {
  PhaseRow row{interval.name, interval.depth, interval.start_time_us, interval.end_time_us};
  row.start_state = clock.state_at_time(interval.start_time_us);
  row.end_state = std::max(row.start_state, clock.state_at_time(interval.end_time_us));
  row.start_event = first_event_at(timeline, row.start_state);
  row.end_event = first_event_at(timeline, row.end_state);
  row.start_bytes = timeline.total_at_state(row.start_state);
  row.end_bytes = timeline.total_at_state(row.end_state);
  const StatePeak peak = peaks.max_in(row.start_state, row.end_state);
  row.peak_bytes = peak.bytes;
  row.peak_state = peak.state;
  row.peak_event = peak.state == row.start_state ? -1 : event_of_state(timeline, peak.state);
  return row;
}

std::string event_text(int64_t event) { return event < 0 ? "-" : std::to_string(event); }

}  // namespace

uint32_t phase_depth_levels(const AnnotationPairing& pairing, std::string_view name_filter, bool timed) {
  if (!timed) return 0;
  uint32_t levels = 0;
  for (const AnnotationInterval& interval : pairing.intervals) {
    if (placed_phase(interval, name_filter)) levels = std::max(levels, interval.depth + 1);
  }
  return levels;
}

PhaseTable build_phase_table(const Timeline& timeline, const AnnotationPairing& pairing,
                             std::string_view name_filter) {
  PhaseTable table;
  table.unmatched = pairing.unmatched;
  table.intervals = pairing.intervals.size();
  const ActionClock clock(timeline);
  table.has_times = clock.has_times();
  if (!table.has_times) return table;
  const StatePeaks peaks(timeline);
  for (const AnnotationInterval& interval : pairing.intervals) {
    if (!placed_phase(interval, name_filter)) continue;
    table.rows.push_back(phase_row(timeline, clock, peaks, interval));
  }
  table.groups = group_phases(table.rows);
  return table;
}

std::string PhaseGroup::label() const {
  return count > 1 ? span.name + " \u00d7" + std::to_string(count) : span.name;
}

std::vector<PhaseGroup> group_phases(const std::vector<PhaseRow>& rows) {
  std::vector<PhaseGroup> groups;
  std::map<std::pair<std::string_view, uint32_t>, size_t> group_of;  // (name, depth) -> index
  for (size_t i = 0; i < rows.size(); ++i) {
    const PhaseRow& row = rows[i];
    const auto [found, added] = group_of.try_emplace({row.name, row.depth}, groups.size());
    if (added) {
      groups.push_back({row, 1, i, i});
      continue;
    }
    PhaseGroup& group = groups[found->second];
    ++group.count;
    if (row.end_state >= group.span.end_state) {
      group.span.end_state = row.end_state;
      group.span.end_event = row.end_event;
      group.span.end_bytes = row.end_bytes;
      group.span.end_time_us = row.end_time_us;
    }
    if (row.peak_bytes > group.span.peak_bytes) {
      group.span.peak_bytes = row.peak_bytes;
      group.span.peak_state = row.peak_state;
      group.span.peak_event = row.peak_event;
      group.peak_row = i;
    }
  }
  return groups;
}

namespace {

void add_phase_line(TextTable& text, const PhaseGroup& group) {
  const PhaseRow& row = group.span;
  text.add_row({format_bytes(double(row.start_bytes)), format_bytes(double(row.end_bytes)),
                format_bytes(double(row.peak_bytes)), format_signed_bytes(row.delta_bytes()),
                event_text(row.start_event) + ".." + (row.end_event < 0 ? "end" : event_text(row.end_event)),
                event_text(row.peak_event), std::string(2 * row.depth, ' ') + group.label()});
}

std::string more_line(size_t more, const char* what) {
  return "(" + std::to_string(more) + " more " + what + "; --top 0 shows all)\n";
}

}  // namespace

std::string phase_table_text(const PhaseTable& table, size_t top) {
  if (table.intervals == 0 && table.unmatched.empty()) return "no annotations\n";
  if (!table.has_times) return "the trace has no time_us, so annotations cannot be placed on it\n";
  if (table.rows.empty() && table.unmatched.empty()) return "no annotation matches the filter\n";
  const std::vector<PhaseGroup>& groups = table.groups;
  const size_t shown = top == 0 ? groups.size() : std::min(top, groups.size());
  TextTable text({"Start", "End", "Peak", "Delta", "Events", "Peak at", "Phase"});
  for (size_t i = 0; i < shown; ++i) add_phase_line(text, groups[i]);
  std::string result = groups.empty() ? std::string() : text.render();
  if (shown < groups.size()) result += more_line(groups.size() - shown, "phase names");
  const size_t unmatched = top == 0 ? table.unmatched.size() : std::min(top, table.unmatched.size());
  for (size_t i = 0; i < unmatched; ++i) {
    const AnnotationRecord& record = table.unmatched[i];
    result += "unmatched " + record.stage + " '" + record.name + "'" +
              (record.time_us == kNoTime ? std::string() : " at time_us " + std::to_string(record.time_us)) +
              '\n';
  }
  if (unmatched < table.unmatched.size())
    result += more_line(table.unmatched.size() - unmatched, "unmatched annotations");
  return result;
}

}  // namespace snapscope
