#include "core/lod/lod_builder.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "core/util/chart_palette.h"

namespace snapscope {

LodBuilder::LodBuilder(const Timeline& timeline, std::shared_ptr<const MemoryPyramid> pyramid)
    : timeline_(timeline),
      pyramid_(pyramid ? std::move(pyramid) : std::make_shared<MemoryPyramid>(timeline)),
      deltas_(timeline),
      cursor_(timeline, deltas_) {}

LodFrame LodBuilder::build(const ChartView& view, std::shared_ptr<const TimeWarp> warp) {
  view_ = view;
  warp_ = std::move(warp);
  LodFrame frame;
  frame.view = view;
  frame.warp = warp_;
  // A time-linear chart always samples per pixel column: a column may hold thousands of steps
  // (a burst) or a fraction of one (an idle second), and memory_viz's ramps have no duration.
  frame.mode = warp_ || pools_ || view.steps_per_px() >= 1.0 ? LodMode::Columns : LodMode::Steps;
  frame.pools = pools_;
  InstanceCollector out(view);
  if (timeline_.action_count() > 0 && timeline_.timesteps() > 0) {
    if (pools_) {
      build_pool_columns(frame, out);
    } else if (frame.mode == LodMode::Columns) {
      build_columns(frame, out);
    } else {
      build_steps(out);
    }
  }
  frame.instances = out.finish();
  return frame;
}

// Column c's x range in the view's units, and the timesteps it covers.
LodBuilder::ColumnSpan LodBuilder::column_span(size_t c) const {
  const double per_column = view_.steps_per_px();
  ColumnSpan span;
  span.x0 = view_.x0 + static_cast<double>(c) * per_column;
  span.x1 = span.x0 + per_column;
  if (warp_) {
    span.x0 = std::max(span.x0, 0.0);
    span.x1 = std::min(span.x1, warp_->axis_end());
    span.step0 = warp_->step_at(span.x0);
    span.step1 = warp_->step_at(span.x1);
  } else {
    span.step0 = std::max(span.x0, 0.0);
    span.step1 = std::min(span.x1, static_cast<double>(timeline_.timesteps()));
    span.x0 = span.step0;
    span.x1 = span.step1;
  }
  return span;
}

// The highest and lowest totals over the timesteps a column covers.
MemoryExtent LodBuilder::span_extent(const MemoryPyramid& pyramid, const ColumnSpan& span) {
  const auto first = static_cast<uint64_t>(std::floor(span.step0));
  const auto last = static_cast<uint64_t>(std::max(std::ceil(span.step1) - 1.0, std::floor(span.step0)));
  return pyramid.over_steps(first, last);
}

void LodBuilder::build_columns(LodFrame& frame, InstanceCollector& out) {
  frame.columns.assign(static_cast<size_t>(view_.width), ColumnSample{});
  RunTracker runs(out);
  uint32_t dirty_from = 0;  // the first drawn column reads the whole visible stack
  double end = 0.0;
  for (size_t c = 0; c < frame.columns.size(); ++c) {
    const ColumnSpan span = column_span(c);
    if (span.x1 <= span.x0 || span.step1 <= span.step0) continue;
    const MemoryExtent extent = span_extent(*pyramid_, span);
    cursor_.move_to(extent.peak_state);
    add_state(span.x0, std::min(dirty_from, cursor_.take_lowest_change()), runs);
    dirty_from = kNoIndex;
    end = span.x1;
    frame.columns[c].state = static_cast<uint32_t>(extent.peak_state);
    frame.columns[c].total = timeline_.total_at_state(extent.peak_state);
  }
  runs.close_all(end);
}

void LodBuilder::set_private_pools(std::shared_ptr<const PrivatePoolLayout> pools,
                                   std::shared_ptr<const MemoryPyramid> pyramid) {
  pool_cursor_.reset();
  pool_pyramid_.reset();
  pools_ = std::move(pools);
  if (!pools_) return;
  if (&pools_->timeline() != &timeline_) throw std::invalid_argument("private pools of another timeline");
  pool_pyramid_ =
      pyramid ? std::move(pyramid) : std::make_shared<MemoryPyramid>(timeline_, pools_->state_totals());
  pool_cursor_.emplace(*pools_, deltas_);
}

// Each pixel column shows the state with the view's highest total inside it, as build_columns.
void LodBuilder::build_pool_columns(LodFrame& frame, InstanceCollector& out) {
  frame.columns.assign(static_cast<size_t>(view_.width), ColumnSample{});
  RunTracker runs(out);
  std::optional<size_t> sampled;  // the state fresh_ holds
  double end = 0.0;
  for (size_t c = 0; c < frame.columns.size(); ++c) {
    const ColumnSpan span = column_span(c);
    if (span.x1 <= span.x0 || span.step1 <= span.step0) continue;
    const MemoryExtent extent = span_extent(*pool_pyramid_, span);
    if (sampled != extent.peak_state) {
      pool_cursor_->move_to(extent.peak_state);
      sample_pool_column(fresh_);
      runs.replace_from(0, fresh_, span.x0);
      sampled = extent.peak_state;
    }
    end = span.x1;
    frame.columns[c].state = static_cast<uint32_t>(extent.peak_state);
    frame.columns[c].total = pools_->total_at_state(extent.peak_state);
  }
  runs.close_all(end);
}

void LodBuilder::sample_pool_column(std::vector<RunPiece>& pieces) const {
  pieces.clear();
  const uint64_t total = pool_cursor_->total();
  for (int row = first_row_at_or_above(view_, 0.0); row < view_.height;) {
    const double centre = view_.y_at_row_centre(row);
    if (centre >= static_cast<double>(total)) break;
    const std::optional<PoolStackHit> hit = pool_cursor_->item_at(static_cast<uint64_t>(centre));
    if (!hit) break;
    const PoolViewItem& item = hit->item;
    const int next =
        std::max(row + 1, first_row_at_or_above(view_, static_cast<double>(item.offset + item.size)));
    const bool inactive = item.kind == PoolViewItem::Kind::PoolInactive;
    const uint32_t color = inactive                         ? kPoolInactiveKey
                           : item.elem < color_keys_.size() ? color_keys_[item.elem]
                                                            : default_color_key(item.elem);
    pieces.push_back({hit->sort_key, item.elem, color, view_.y0 + row * view_.bytes_per_px(),
                      (next - row) * view_.bytes_per_px()});
    row = next;
  }
  std::sort(pieces.begin(), pieces.end(),
            [](const RunPiece& a, const RunPiece& b) { return a.position < b.position; });
}

void LodBuilder::build_steps(InstanceCollector& out) {
  uint64_t final_step = timeline_.timesteps() - 1;
  double first_x = std::max(view_.x0, 0.0), last_x = std::ceil(view_.x1) - 1.0;
  if (last_x < first_x || first_x > static_cast<double>(final_step)) return;
  size_t first = timeline_.action_at_step(static_cast<uint64_t>(std::floor(first_x)));
  size_t last = timeline_.action_at_step(std::min(static_cast<uint64_t>(last_x), final_step));
  RunTracker runs(out);
  uint32_t dirty_from = 0;
  for (size_t action = first; action <= last; ++action) {
    auto begin = static_cast<double>(timeline_.step_begin(action));
    auto end = static_cast<double>(timeline_.step_end(action));
    bool is_free = timeline_.action_is_free(action);
    // memory_viz shows a free's first step before the free, then slides what was above it.
    cursor_.move_to(is_free ? action : action + 1);
    double shown_until = is_free ? begin + 1.0 : end;
    add_state(begin, std::min(dirty_from, cursor_.take_lowest_change()), runs);
    dirty_from = kNoIndex;
    if (end > shown_until) dirty_from = add_ramp(action, shown_until, end, runs);
  }
  runs.close_all(static_cast<double>(timeline_.step_end(last)));
}

void LodBuilder::add_state(double x, uint32_t dirty_from, RunTracker& runs) {
  if (dirty_from == kNoIndex) return;  // the stack did not change: every run continues
  sampler_.sample(view_, cursor_, static_cast<double>(cursor_.offset_of(dirty_from)), nullptr, fresh_);
  runs.replace_from(dirty_from, fresh_, x);
}

uint32_t LodBuilder::add_ramp(size_t action, double x0, double x1, RunTracker& runs) {
  uint32_t freed = timeline_.input().actions[action].elem;
  RampSlide ramp;
  ramp.freed_position = timeline_.stack_position(freed);
  ramp.gap_bottom = static_cast<double>(cursor_.offset_of(ramp.freed_position));
  ramp.gap_size = static_cast<double>(timeline_.element(freed).size);
  // The pixel columns whose centre lies inside the ramp, each showing the slide at its centre
  // (the same arithmetic as pick_at).
  const double per_px = view_.steps_per_px();
  int column = static_cast<int>(
      std::clamp(std::floor((x0 - view_.x0) / per_px - 0.5), 0.0, static_cast<double>(view_.width)));
  for (; column < view_.width; ++column) {
    const double centre = view_.x_at_pixel_centre(column);
    if (centre < x0) continue;
    if (centre >= x1) break;
    ramp.slide = ramp.gap_size * (centre - x0) / (x1 - x0);
    sampler_.sample(view_, cursor_, ramp.gap_bottom, &ramp, fresh_);
    const double left = std::max(view_.x0 + column * per_px, x0);
    runs.replace_from(ramp.freed_position, fresh_, left);
  }
  return ramp.freed_position;
}

size_t LodBuilder::memory_bytes() const {
  const size_t pools = pool_pyramid_ ? pool_pyramid_->memory_bytes() : 0;
  return pyramid_->memory_bytes() + deltas_.memory_bytes() + timeline_.element_count() * sizeof(uint64_t) +
         pools;
}

}  // namespace snapscope
