#include "core/allocator/segment_layout.h"

#include <algorithm>

namespace snapscope {
namespace {

constexpr uint64_t kRowGapDivisor = 200;  // memory_viz: one unit of its 200-wide view box

void pack_rows(SegmentLayout& layout) {
  auto& placed = layout.segments;
  std::sort(placed.begin(), placed.end(), [](const PlacedSegment& a, const PlacedSegment& b) {
    return a.segment.size != b.segment.size ? a.segment.size < b.segment.size
                                            : a.segment.addr < b.segment.addr;
  });
  layout.row_width = placed.empty() ? 0 : placed.back().segment.size;
  layout.gap = layout.row_width / kRowGapDivisor;
  size_t row = 0;
  uint64_t used = 0;
  for (PlacedSegment& segment : placed) {
    if (used + segment.segment.size > layout.row_width) {
      used = 0;
      ++row;
    }
    segment.row = row;
    segment.x = used;
    used += segment.segment.size + layout.gap;
  }
  layout.rows = placed.empty() ? 0 : row + 1;
}

// Segments by address, to find each block's segment by binary search.
std::vector<size_t> by_address(const SegmentLayout& layout) {
  std::vector<size_t> order(layout.segments.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return layout.segments[a].segment.addr < layout.segments[b].segment.addr;
  });
  return order;
}

long containing_segment(const SegmentLayout& layout, const std::vector<size_t>& order, uint64_t addr) {
  auto after = std::upper_bound(order.begin(), order.end(), addr,
                                [&](uint64_t a, size_t s) { return a < layout.segments[s].segment.addr; });
  if (after == order.begin()) return -1;
  const PlacedSegment& candidate = layout.segments[*std::prev(after)];
  return addr < candidate.segment.addr + candidate.segment.size ? static_cast<long>(*std::prev(after)) : -1;
}

}  // namespace

SegmentLayout layout_segments(const AllocatorState& state, const SegmentPools* pools) {
  SegmentLayout layout;
  for (const auto& [addr, segment] : state.segments()) {
    layout.segments.push_back({segment, pools ? pools->private_pool_at(addr) : std::nullopt});
  }
  pack_rows(layout);
  const std::vector<size_t> order = by_address(layout);
  for (const AllocatorBlock& block : state.blocks().sorted()) {
    const uint64_t addr = block.addr;
    const long index = containing_segment(layout, order, addr);
    if (index < 0) {
      ++layout.orphan_blocks;
      layout.orphan_bytes += block.requested_size;
      continue;
    }
    PlacedSegment& segment = layout.segments[static_cast<size_t>(index)];
    segment.occupied += block.requested_size;
    segment.internal_free += block.size - std::min(block.size, block.requested_size);
    ++segment.block_count;
    layout.blocks.push_back({block, static_cast<size_t>(index), segment.x + (addr - segment.segment.addr)});
  }
  return layout;
}

long block_at(const SegmentLayout& layout, size_t row, uint64_t x) {
  for (size_t i = 0; i < layout.blocks.size(); ++i) {
    const PlacedBlock& placed = layout.blocks[i];
    if (layout.segments[placed.segment].row == row && x >= placed.x && x < placed.x + placed.block.size)
      return static_cast<long>(i);
  }
  return -1;
}

long segment_at(const SegmentLayout& layout, size_t row, uint64_t x) {
  for (size_t i = 0; i < layout.segments.size(); ++i) {
    const PlacedSegment& placed = layout.segments[i];
    if (placed.row == row && x >= placed.x && x < placed.x + placed.segment.size) return static_cast<long>(i);
  }
  return -1;
}

}  // namespace snapscope
