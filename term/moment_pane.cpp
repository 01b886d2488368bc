#include "term/moment_pane.h"

#include <curses.h>

#include <algorithm>
#include <cstdio>

#include "core/analysis/state_mapping.h"
#include "core/util/format.h"
#include "core/view/stack_format.h"
#include "term/list_keys.h"

namespace snapscope::term {
namespace {

std::string event_text(int64_t event) { return event < 0 ? std::string("-") : "#" + std::to_string(event); }

void keep_in_view(size_t selected, size_t& top, int shown) {
  const auto rows = static_cast<size_t>(std::max(1, shown));
  if (selected < top) top = selected;
  if (selected >= top + rows) top = selected + 1 - rows;
}

}  // namespace

void MomentPane::set_analysis(std::shared_ptr<const CursorAnalysis> analysis) {
  if (analysis == analysis_) return;
  analysis_ = std::move(analysis);
  if (analysis_)
    selected_ = std::min(selected_, analysis_->moment.rows.empty() ? 0 : analysis_->moment.rows.size() - 1);
}

std::string MomentPane::first_row_label() const {
  return analysis_ && !analysis_->moment.rows.empty() ? analysis_->moment.rows.front().label : std::string();
}

bool MomentPane::key(int ch, Session& session) {
  if (!analysis_) return false;
  const Timeline* timeline = session.timeline();
  if (in_allocations_) {
    if (step_index(ch, allocation_, allocations_.size(), page_)) return true;
    switch (ch) {
      case '\n':
      case KEY_ENTER:
        if (!allocations_.empty()) session.select(allocations_[allocation_]);
        return true;
      case 'a':
      case 'x': {
        if (allocations_.empty() || timeline == nullptr) return true;
        const uint32_t elem = allocations_[allocation_];
        const size_t state = ch == 'a' ? timeline->alloc_state(elem) : timeline->free_state(elem);
        if (state <= timeline->action_count()) session.cursor.place(*timeline, state);
        session.select(elem);
        return true;
      }
      case 'q':
      case KEY_LEFT:
        in_allocations_ = false;
        session.select(std::nullopt);
        return true;
      default:
        return false;
    }
  }
  const auto& rows = analysis_->moment.rows;
  if (step_index(ch, selected_, rows.size(), page_)) return true;
  switch (ch) {
    case '\n':
    case KEY_ENTER:
    case KEY_RIGHT:
      if (rows.empty()) return true;
      opened_label_ = rows[selected_].label;
      allocations_ = analysis_->elements_at_location(rows[selected_].location);
      if (timeline != nullptr) {
        std::stable_sort(allocations_.begin(), allocations_.end(), [&](uint32_t a, uint32_t b) {
          return timeline->element(a).size > timeline->element(b).size;
        });
      }
      allocation_ = allocation_top_ = 0;
      in_allocations_ = true;
      return true;
    default:
      return false;
  }
}

void MomentPane::draw(const Terminal& terminal, Rect area, const Session& session) {
  page_ = std::max(1, area.height - 2);
  if (!analysis_) {
    terminal.put(area.y, area.x, "computing the moment table at the cursor...", area.width, Ink::Dim);
    return;
  }
  if (in_allocations_) {
    draw_allocations(terminal, area, session);
  } else {
    draw_rows(terminal, area);
  }
}

void MomentPane::draw_rows(const Terminal& terminal, Rect area) const {
  const auto& rows = analysis_->moment.rows;
  terminal.put(area.y, area.x, "        Mem  Cumulative     Count  Location   (Enter: its allocations)",
               area.width, Ink::Dim, A_UNDERLINE);
  const int shown = area.height - 1;
  keep_in_view(selected_, top_, shown);
  for (int i = 0; i < shown && top_ + static_cast<size_t>(i) < rows.size(); ++i) {
    const size_t index = top_ + static_cast<size_t>(i);
    const MomentRow& row = rows[index];
    char numbers[64];
    std::snprintf(
        numbers, sizeof numbers, "%11s %11s %9s  ", format_bytes(static_cast<double>(row.bytes)).c_str(),
        format_bytes(static_cast<double>(row.cumulative)).c_str(), format_grouped(row.count).c_str());
    const int used = cell_width(numbers);
    const attr_t selected = index == selected_ ? A_REVERSE : A_NORMAL;
    const int y = area.y + 1 + i;
    terminal.fill(y, area.x, area.width, Ink::Normal, selected);
    terminal.put(y, area.x, numbers, area.width, Ink::Normal, selected);
    terminal.put(y, area.x + used, fit_cells_left(row.label, area.width - used, terminal.utf8()),
                 area.width - used, Ink::Normal, selected);
  }
}

void MomentPane::draw_allocations(const Terminal& terminal, Rect area, const Session& session) const {
  const Timeline* timeline = session.timeline();
  if (timeline == nullptr) return;
  terminal.put(area.y, area.x,
               fit_cells_left(format_count(allocations_.size(), "allocation") + " of " + opened_label_ +
                                  "   (Enter: stack, a/x: cursor to alloc/free, q: back)",
                              area.width, terminal.utf8()),
               area.width, Ink::Dim, A_UNDERLINE);
  const SessionCategories* categories = session.categories();
  const std::optional<AllocationDetails>& details = session.details();
  const bool stack_shown = details.has_value();
  const int list_rows = stack_shown ? std::max(2, (area.height - 1) / 2) : area.height - 1;
  keep_in_view(allocation_, allocation_top_, list_rows);
  for (int i = 0; i < list_rows && allocation_top_ + static_cast<size_t>(i) < allocations_.size(); ++i) {
    const size_t index = allocation_top_ + static_cast<size_t>(i);
    const uint32_t elem = allocations_[index];
    const ReplayElement& element = timeline->element(elem);
    const std::string category =
        categories ? std::string(categories->classification.category_name(elem)) : "";
    char line[160];
    std::snprintf(
        line, sizeof line, "%11s  alloc %-10s free %-10s %s",
        format_bytes(static_cast<double>(element.size)).c_str(), event_text(element.alloc_event).c_str(),
        element.free_event < 0 ? "(live)" : event_text(element.free_event).c_str(), category.c_str());
    const attr_t selected = index == allocation_ ? A_REVERSE : A_NORMAL;
    terminal.fill(area.y + 1 + i, area.x, area.width, Ink::Normal, selected);
    terminal.put(area.y + 1 + i, area.x, line, area.width, Ink::Normal, selected);
  }
  if (!stack_shown) return;
  const int stack_y = area.y + 1 + list_rows;
  terminal.put(stack_y, area.x, "stack (innermost first):", area.width, Ink::Dim);
  int y = stack_y + 1;
  for (const std::string& frame : stack_lines(details->frames, session.settings.show_all_frames)) {
    if (y >= area.y + area.height) break;
    const std::string first_line = frame.substr(0, frame.find('\n'));
    terminal.put(y++, area.x + 2, fit_cells_left(first_line, area.width - 2, terminal.utf8()),
                 area.width - 2);
  }
}

}  // namespace snapscope::term
