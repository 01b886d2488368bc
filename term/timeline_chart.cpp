#include "term/timeline_chart.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "core/analysis/state_mapping.h"
#include "core/cursor/time_cursor.h"
#include "core/util/format.h"
#include "core/view/y_fit.h"

namespace snapscope::term {
namespace {

constexpr const char* kEighths[] = {"\u2581", "\u2582", "\u2583", "\u2584",
                                    "\u2585", "\u2586", "\u2587", "\u2588"};
constexpr double kHeadroom = 1.05;  // above the highest total, as the viewer fits

std::string axis_label(double bytes) { return format_bytes(bytes, 1); }

}  // namespace

int TimelineChart::row_of(uint64_t bytes) const {
  const double fraction = (static_cast<double>(bytes) - y0_) / (y1_ - y0_);
  if (fraction < 0 || fraction > 1) return -1;
  const int from_bottom = std::min(plot_.height - 1, static_cast<int>(fraction * plot_.height));
  return plot_.height - 1 - from_bottom;
}

void TimelineChart::draw(const Terminal& terminal, Session& session, Rect area, const ChartRunB& run_b) {
  const Timeline* timeline = session.timeline();
  const DeviceDocument* device = session.device();
  plot_ = {area.y + 1, area.x + kAxisCells, std::max(1, area.height - 2),
           std::max(1, area.width - kAxisCells)};
  if (timeline == nullptr || device == nullptr) return;
  ViewTransform& view = session.view;
  view.set_viewport(plot_.width, plot_.height);
  const std::shared_ptr<const MemoryPyramid> pyramid = device->pyramid(session.settings.kind);
  const DataRect fitted = fit_y(view.visible(), *timeline, *pyramid, raise_floor);
  y0_ = raise_floor ? fitted.y0 : 0;
  y1_ = std::max(fitted.y1 * kHeadroom, y0_ + 1);
  columns_ = pyramid->columns(view.visible().x0, view.visible().x1, plot_.width);
  draw_phases(terminal, session, area.y);
  draw_y_axis(terminal, area);
  draw_bars(terminal, cursor_column(session).value_or(-1));
  if (show_reserved) {
    if (usage_for_ != &device->blocks) {
      usage_ = std::make_unique<UsageCurve>(device->blocks, device->reserved);
      usage_for_ = &device->blocks;
    }
    std::vector<uint64_t> reserved;
    for (const UsageColumn& column : usage_->columns(*timeline, view.column_edges(plot_.width)))
      reserved.push_back(column.valid ? column.reserved_max : 0);
    draw_line(terminal, reserved, terminal.glyph("\u2500", "-"), Ink::Reserved);
  }
  if (run_b.blocks != nullptr && run_b.alignment != nullptr) {
    std::vector<uint64_t> totals;
    for (const MemoryExtent& column : columns_)
      totals.push_back(run_b.blocks->total_at_state(run_b.alignment->b_state(column.peak_state)));
    draw_line(terminal, totals, terminal.glyph("\u2022", "*"), Ink::RunB);
  }
  draw_x_axis(terminal, session, plot_.y + plot_.height);
}

void TimelineChart::draw_bars(const Terminal& terminal, int cursor) const {
  for (int c = 0; c < plot_.width && c < static_cast<int>(columns_.size()); ++c) {
    const double fraction = std::clamp(
        (static_cast<double>(columns_[static_cast<size_t>(c)].max_bytes) - y0_) / (y1_ - y0_), 0.0, 1.0);
    const int eighths = static_cast<int>(std::lround(fraction * plot_.height * 8));
    for (int r = 0; r < plot_.height; ++r) {
      const int filled = std::clamp(eighths - (plot_.height - 1 - r) * 8, 0, 8);
      const char* cell = filled == 0 ? " " : terminal.utf8() ? kEighths[filled - 1] : filled >= 4 ? "#" : ".";
      terminal.put(plot_.y + r, plot_.x + c, cell, 1, c == cursor ? Ink::Cursor : Ink::Allocated);
    }
  }
}

void TimelineChart::draw_line(const Terminal& terminal, const std::vector<uint64_t>& bytes, const char* glyph,
                              Ink ink) const {
  for (int c = 0; c < plot_.width && c < static_cast<int>(bytes.size()); ++c) {
    const int row = row_of(bytes[static_cast<size_t>(c)]);
    if (row >= 0) terminal.put(plot_.y + row, plot_.x + c, glyph, 1, ink, A_BOLD);
  }
}

void TimelineChart::draw_y_axis(const Terminal& terminal, Rect area) const {
  const int width = kAxisCells - 1;
  const auto label = [&](int row, double bytes) {
    const std::string text = axis_label(bytes);
    terminal.put(row, area.x + std::max(0, width - cell_width(text)), text, width, Ink::Dim);
  };
  label(plot_.y, y1_);
  if (plot_.height >= 5) label(plot_.y + plot_.height / 2, (y0_ + y1_) / 2);
  label(plot_.y + plot_.height - 1, y0_);
}

void TimelineChart::draw_x_axis(const Terminal& terminal, const Session& session, int row) const {
  const Timeline& timeline = *session.timeline();
  terminal.fill(row, plot_.x, plot_.width, Ink::Normal);
  const int labels = std::max(2, plot_.width / 24);
  int free_from = plot_.x;
  for (int i = 0; i < labels; ++i) {
    const int column = i * (plot_.width - 1) / (labels - 1);
    // The column's first state: where the column starts, as the viewer's axis labels it.
    const size_t state = nearest_state(timeline, session.view.to_data_x(column));
    const int64_t event = event_of_state(timeline, state);
    const std::string text = event < 0 ? "start" : "#" + format_grouped(static_cast<uint64_t>(event));
    const int x = std::clamp(plot_.x + column - cell_width(text) / 2, plot_.x,
                             plot_.x + plot_.width - cell_width(text));
    if (x < free_from) continue;
    terminal.put(row, x, text, -1, Ink::Dim);
    free_from = x + cell_width(text) + 1;
  }
}

void TimelineChart::draw_phases(const Terminal& terminal, Session& session, int row) const {
  terminal.fill(row, plot_.x, plot_.width, Ink::Normal);
  const PhaseTable* phases = session.phase_table("");
  if (phases == nullptr) return;
  const Timeline& timeline = *session.timeline();
  int free_from = plot_.x;  // labels never overlap: one that would is dropped
  for (const PhaseRow& phase : phases->rows) {
    if (phase.depth != 0) continue;
    const double left = session.view.to_screen_x(state_x(timeline, phase.start_state));
    const double right = session.view.to_screen_x(state_x(timeline, phase.end_state));
    if (right < 0 || left >= plot_.width) continue;
    const int first = std::max(0, static_cast<int>(std::floor(left)));
    const int last = std::min(plot_.width - 1, std::max(first, static_cast<int>(std::ceil(right)) - 1));
    const int width = last - first + 1;
    terminal.fill(row, plot_.x + first, width, Ink::Phase);
    if (plot_.x + first < free_from || width < 4) continue;
    const std::string label = fit_cells(phase.name, width - 1, terminal.utf8());
    terminal.put(row, plot_.x + first, label, width, Ink::Phase);
    free_from = plot_.x + first + cell_width(label) + 1;
  }
}

std::optional<size_t> TimelineChart::state_at_column(const Session& session, int column) const {
  const Timeline* timeline = session.timeline();
  if (timeline == nullptr || column < 0 || column >= plot_.width) return std::nullopt;
  if (column < static_cast<int>(columns_.size()) && columns_[static_cast<size_t>(column)].max_bytes > 0)
    return columns_[static_cast<size_t>(column)].peak_state;
  return nearest_state(*timeline, session.view.to_data_x(column + 0.5));
}

std::optional<int> TimelineChart::cursor_column(const Session& session) const {
  const Timeline* timeline = session.timeline();
  if (timeline == nullptr || !session.cursor.placed()) return std::nullopt;
  const double x = session.view.to_screen_x(state_x(*timeline, session.cursor.state()));
  const int column = std::min(plot_.width - 1, static_cast<int>(std::floor(x)));
  if (x < 0 || column < 0 || x > plot_.width) return std::nullopt;
  return column;
}

}  // namespace snapscope::term
