// memory_viz's picture of an allocator state: segments sorted by size (then address) packed
// left to right into rows as wide as the largest segment, each block drawn at its offset inside
// its segment. Pure numbers in bytes; the panel scales them to pixels.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "core/allocator/allocator_state.h"
#include "core/allocator/segment_pools.h"

namespace snapscope {

struct PlacedSegment {
  AllocatorSegment segment;
  std::optional<PoolId> pool;  // its private pool (SegmentPools), when the snapshot says
  size_t row = 0;
  uint64_t x = 0;              // left edge in the row, bytes
  uint64_t occupied = 0;       // requested bytes of its blocks
  uint64_t internal_free = 0;  // rounding waste: size - requested of its blocks
  size_t block_count = 0;
  uint64_t free_bytes() const { return segment.size - std::min(segment.size, occupied); }
};

struct PlacedBlock {
  AllocatorBlock block;
  size_t segment = 0;  // index into SegmentLayout::segments
  uint64_t x = 0;      // left edge in the row, bytes
};

struct SegmentLayout {
  std::vector<PlacedSegment> segments;  // in packing order
  std::vector<PlacedBlock> blocks;      // blocks inside some segment
  uint64_t row_width = 0;               // the largest segment's size
  uint64_t gap = 0;                     // space between segments in a row (1/200 of a row)
  size_t rows = 0;
  size_t orphan_blocks = 0;  // blocks outside every segment (traces whose addresses the snapshot lacks)
  uint64_t orphan_bytes = 0;
};

// `pools` (optional) names each segment's private pool.
SegmentLayout layout_segments(const AllocatorState& state, const SegmentPools* pools = nullptr);

// Index into layout.blocks / layout.segments under a point given in (row, x bytes); -1 if none.
long block_at(const SegmentLayout& layout, size_t row, uint64_t x);
long segment_at(const SegmentLayout& layout, size_t row, uint64_t x);

}  // namespace snapscope
