#include "core/lod/lod_pick.h"

#include <cmath>
#include <optional>

namespace snapscope {
namespace {

PickResult classify(std::optional<LiveAllocation> hit, size_t state) {
  if (!hit) return {};
  return {PickKind::Allocation, hit->elem, state, hit->offset, hit->size};
}

std::optional<LiveAllocation> allocation_at_byte(const Timeline& timeline, size_t state, double byte) {
  if (byte < 0) return std::nullopt;
  return timeline.allocation_at(state, static_cast<uint64_t>(byte));
}

// Steps mode: the exact memory_viz layout at x, including a free's sliding ramp.
PickResult pick_step(const Timeline& timeline, double x, double byte) {
  size_t action = timeline.action_at_step(static_cast<uint64_t>(x));
  auto begin = static_cast<double>(timeline.step_begin(action));
  if (!timeline.action_is_free(action)) {
    return classify(allocation_at_byte(timeline, action + 1, byte), action + 1);
  }
  if (x < begin + 1.0) return classify(allocation_at_byte(timeline, action, byte), action);
  uint32_t freed = timeline.input().actions[action].elem;
  auto freed_offset = static_cast<double>(timeline.offset_of(freed, action));
  auto freed_size = static_cast<double>(timeline.element(freed).size);
  double ramp = static_cast<double>(timeline.step_end(action)) - (begin + 1.0);
  double slide = freed_size * (x - (begin + 1.0)) / ramp;
  if (byte < freed_offset) return classify(allocation_at_byte(timeline, action, byte), action);
  if (byte < freed_offset + freed_size - slide) return {};  // the gap the free leaves behind
  return classify(allocation_at_byte(timeline, action, byte + slide), action);
}

// The private pools view: the item covering the byte in the column's state.
PickResult pick_pools(const PrivatePoolLayout& pools, size_t state, double byte) {
  if (byte < 0) return {};
  const std::optional<PoolViewItem> item = pools.item_at(state, static_cast<uint64_t>(byte));
  if (!item) return {};
  const PickKind kind =
      item->kind == PoolViewItem::Kind::PoolInactive ? PickKind::PoolInactive : PickKind::Allocation;
  return {kind, item->elem, state, item->offset, item->size, item->pool};
}

}  // namespace

PickResult pick_at(const Timeline& timeline, const LodFrame& frame, double px, double py) {
  const ChartView& view = frame.view;
  if (px < 0 || py < 0 || px >= view.width || py >= view.height) return {};
  double row = view.height - 1 - std::floor(py);
  double byte = view.y_at_row_centre(row);
  if (frame.mode == LodMode::Columns) {
    const ColumnSample& column = frame.columns[static_cast<size_t>(px)];
    if (column.state == kNoIndex) return {};
    if (frame.pools) return pick_pools(*frame.pools, column.state, byte);
    return classify(allocation_at_byte(timeline, column.state, byte), column.state);
  }
  double x = view.x_at_pixel_centre(px);
  if (x < 0 || x >= static_cast<double>(timeline.timesteps())) return {};
  return pick_step(timeline, x, byte);
}

}  // namespace snapscope
