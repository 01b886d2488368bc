// Enumerates the allocations whose liveness differs between two states without replaying the
// actions in between: an allocation and its free that both fall between the states cancel out and
// are never visited. Work is O(changed allocations + blocks scanned), not O(actions between).
//
// It relies on memory_viz's stack order: positions are handed out in allocation order, so the
// allocations made in states (a, b] occupy one contiguous range of positions.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "core/timeline/timeline.h"

namespace snapscope {

class StateDeltaIndex {
 public:
  explicit StateDeltaIndex(const Timeline& timeline);

  // Calls on_change(position, now_live) for every stack position whose allocation is live in
  // exactly one of `from` and `to`; now_live tells whether it is live in `to`.
  void for_each_change(size_t from, size_t to, const std::function<void(uint32_t, bool)>& on_change) const;
  // Calls visit(position) for every allocation live in `state`, bottom to top.
  void for_each_live(size_t state, const std::function<void(uint32_t)>& visit) const;

  size_t memory_bytes() const;

 private:
  static constexpr size_t kBlock = 64;
  // Positions in [first, last) whose allocation is still live after `state`.
  void for_each_surviving(uint32_t first, uint32_t last, size_t state,
                          const std::function<void(uint32_t)>& visit) const;
  // Free actions in [first, last) of allocations that were live at state `first`.
  void for_each_old_free(size_t first, size_t last, const std::function<void(uint32_t)>& visit) const;

  const Timeline& timeline_;
  std::vector<uint32_t> max_free_state_;      // per block of kBlock stack positions
  std::vector<uint32_t> min_freed_position_;  // per block of kBlock actions: lowest position freed
};

}  // namespace snapscope
