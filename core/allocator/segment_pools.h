// The private memory pools (CUDA graphs, torch.cuda.MemPool) of the end-of-trace segment
// snapshot, found by address as memory_viz's find_pool_id does: a trace event carries no pool, so
// a segment's pool is that of the snapshot segment holding its address. A segment the snapshot no
// longer holds has no known pool; the default pool (0, 0) is not recorded.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

namespace snapscope {

using PoolId = std::array<int64_t, 2>;

class SegmentPools {
 public:
  // Any order; segments of the default pool are ignored.
  void add(uint64_t address, uint64_t size, const PoolId& pool);
  // The private pool of the snapshot segment holding `address`, if any.
  std::optional<PoolId> private_pool_at(uint64_t address) const;

 private:
  struct Range {
    uint64_t begin = 0, end = 0;
    PoolId pool{};
  };
  std::vector<Range> ranges_;  // sorted by begin; snapshot segments do not overlap
};

}  // namespace snapscope
