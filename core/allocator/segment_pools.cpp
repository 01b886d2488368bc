#include "core/allocator/segment_pools.h"

#include <algorithm>

namespace snapscope {

void SegmentPools::add(uint64_t address, uint64_t size, const PoolId& pool) {
  if (pool == PoolId{0, 0} || size == 0) return;
  const Range range{address, address + size, pool};
  const auto at = std::upper_bound(ranges_.begin(), ranges_.end(), address,
                                   [](uint64_t value, const Range& r) { return value < r.begin; });
  ranges_.insert(at, range);
}

std::optional<PoolId> SegmentPools::private_pool_at(uint64_t address) const {
  const auto after = std::upper_bound(ranges_.begin(), ranges_.end(), address,
                                      [](uint64_t value, const Range& r) { return value < r.begin; });
  if (after == ranges_.begin()) return std::nullopt;
  const Range& range = *std::prev(after);
  if (address >= range.end) return std::nullopt;
  return range.pool;
}

}  // namespace snapscope
