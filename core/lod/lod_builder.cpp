#include "core/lod/lod_builder.h"

#include <algorithm>
#include <cmath>

namespace snapscope {

LodBuilder::LodBuilder(const Timeline& timeline, std::shared_ptr<const MemoryPyramid> pyramid)
    : timeline_(timeline),
      pyramid_(pyramid ? std::move(pyramid) : std::make_shared<MemoryPyramid>(timeline)),
      deltas_(timeline),
      cursor_(timeline, deltas_) {}

uint32_t LodBuilder::color_of(uint32_t elem) const {
  return elem < color_keys_.size() ? color_keys_[elem] : default_color_key(elem);
}

// Row boundaries are where pixel rows meet; rounding to the nearest one makes a row painted
// exactly when its centre lies inside the allocation, which is what picking tests.
double LodBuilder::snap(double bytes) const {
  double per_px = view_.bytes_per_px();
  return view_.y0 + std::ceil((bytes - view_.y0) / per_px - 0.5) * per_px;
}

LodFrame LodBuilder::build(const ChartView& view) {
  view_ = view;
  LodFrame frame;
  frame.view = view;
  frame.big_threshold = std::max<uint64_t>(1, static_cast<uint64_t>(std::ceil(view.bytes_per_px())));
  cursor_.set_big_threshold(frame.big_threshold);
  frame.mode = view.steps_per_px() >= 1.0 ? LodMode::Columns : LodMode::Steps;
  InstanceCollector out(view);
  if (timeline_.action_count() > 0 && timeline_.timesteps() > 0) {
    if (frame.mode == LodMode::Columns) {
      build_columns(frame, out);
    } else {
      build_steps(out);
    }
  }
  frame.instances = out.finish();
  frame.aggregate_count =
      static_cast<size_t>(std::find_if(frame.instances.begin(), frame.instances.end(),
                                       [](const ChartInstance& i) { return !i.is_aggregate(); }) -
                          frame.instances.begin());
  return frame;
}

void LodBuilder::build_columns(LodFrame& frame, InstanceCollector& out) {
  auto steps = static_cast<double>(timeline_.timesteps());
  double per_column = view_.steps_per_px();
  frame.columns.assign(static_cast<size_t>(view_.width), ColumnSample{});
  RunTracker runs(out);
  uint32_t dirty_from = 0;  // the first drawn column reads the whole visible stack
  double end = 0.0;
  for (size_t c = 0; c < frame.columns.size(); ++c) {
    double left = std::max(view_.x0 + static_cast<double>(c) * per_column, 0.0);
    double right = std::min(view_.x0 + static_cast<double>(c + 1) * per_column, steps);
    if (right <= left) continue;
    auto first = static_cast<uint64_t>(std::floor(left));
    auto last = static_cast<uint64_t>(std::max(std::ceil(right) - 1.0, std::floor(left)));
    MemoryExtent extent = pyramid_->over_steps(first, last);
    cursor_.move_to(extent.peak_state);
    add_state(left, right, std::min(dirty_from, cursor_.take_lowest_change()), runs, out);
    dirty_from = kNoIndex;
    end = right;
    frame.columns[c].state = static_cast<uint32_t>(extent.peak_state);
    frame.columns[c].total = timeline_.total_at_state(extent.peak_state);
    frame.columns[c].aggregated_bytes = frame.columns[c].total - cursor_.big_bytes();
  }
  runs.close_all(end);
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
    add_state(begin, shown_until, std::min(dirty_from, cursor_.take_lowest_change()), runs, out);
    dirty_from = kNoIndex;
    if (end > shown_until) dirty_from = add_ramp(action, shown_until, end, runs, out);
  }
  runs.close_all(static_cast<double>(timeline_.step_end(last)));
}

void LodBuilder::add_state(double x0, double x1, uint32_t dirty_from, RunTracker& runs,
                           InstanceCollector& out) {
  uint64_t total = timeline_.total_at_state(cursor_.state());
  double floor_row = snap(0.0);
  out.add({x0, x1, floor_row, floor_row, snap(static_cast<double>(total)) - floor_row, kAggregateColorKey,
           kAggregateElem});
  if (dirty_from == kNoIndex) return;  // the stack did not change: every run continues
  const auto& big = cursor_.big_positions();
  uint32_t first_visible = cursor_.position_covering(static_cast<uint64_t>(std::max(view_.y0, 0.0)));
  fresh_.clear();
  for (auto it = big.lower_bound(std::max(dirty_from, first_visible)); it != big.end(); ++it) {
    auto offset = static_cast<double>(cursor_.offset_of(*it));
    if (offset >= view_.y1) break;
    uint32_t elem = timeline_.element_at_stack_position(*it);
    double bottom = snap(offset), top = snap(offset + static_cast<double>(timeline_.element(elem).size));
    fresh_.push_back({*it, elem, color_of(elem), bottom, top - bottom});
  }
  runs.replace_from(dirty_from, fresh_, x0);
}

uint32_t LodBuilder::add_ramp(size_t action, double x0, double x1, RunTracker& runs, InstanceCollector& out) {
  uint32_t freed = timeline_.input().actions[action].elem;
  uint32_t freed_position = timeline_.stack_position(freed);
  auto freed_offset = static_cast<double>(cursor_.offset_of(freed_position));
  auto freed_size = static_cast<double>(timeline_.element(freed).size);
  auto total = static_cast<double>(timeline_.total_at_state(cursor_.state()));
  double floor_row = snap(0.0);
  // Aggregated fill: the part below the freed allocation stays, the part above slides down.
  out.add({x0, x1, floor_row, floor_row, snap(freed_offset) - floor_row, kAggregateColorKey, kAggregateElem});
  double above_bottom = snap(freed_offset + freed_size);
  out.add({x0, x1, above_bottom, snap(freed_offset), snap(total) - above_bottom, kAggregateColorKey,
           kAggregateElem});
  // Runs below the freed allocation continue through the ramp, and so do those above whose slide
  // stays within their pixel rows; the others become trapezoids.
  const auto& big = cursor_.big_positions();
  uint32_t first_visible = cursor_.position_covering(static_cast<uint64_t>(std::max(view_.y0, 0.0)));
  fresh_.clear();
  for (auto it = big.lower_bound(std::max(freed_position + 1, first_visible)); it != big.end(); ++it) {
    auto offset = static_cast<double>(cursor_.offset_of(*it));
    if (offset - freed_size >= view_.y1) break;
    uint32_t elem = timeline_.element_at_stack_position(*it);
    double bottom = snap(offset), top = snap(offset + static_cast<double>(timeline_.element(elem).size));
    double slid_bottom = snap(offset - freed_size);
    if (slid_bottom == bottom) {
      fresh_.push_back({*it, elem, color_of(elem), bottom, top - bottom});
    } else {
      out.add({x0, x1, bottom, slid_bottom, top - bottom, color_of(elem), elem});
    }
  }
  runs.replace_from(freed_position, fresh_, x0);
  return freed_position;
}

size_t LodBuilder::memory_bytes() const {
  return pyramid_->memory_bytes() + deltas_.memory_bytes() + timeline_.element_count() * sizeof(uint64_t);
}

}  // namespace snapscope
