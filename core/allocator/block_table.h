// The active blocks of an AllocatorState, by address: an open-addressing hash table, because the
// allocator history's backward pass adds or removes a block at almost every one of millions of
// events, and std::map's node allocation and tree walk were most of that pass's time. Ordered
// views are made on demand (sorted()), where a checkpoint or a panel needs address order.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "core/snapshot/model.h"

namespace snapscope {

// An active block: allocated, or freed on its stream but waiting for another stream's use to end.
struct AllocatorBlock {
  uint64_t addr = 0;
  uint64_t size = 0;
  uint64_t requested_size = 0;  // == size where the trace does not say (blocks re-added from frees)
  StackId stack = 0;
  bool pending_free = false;  // active_pending_free: free_requested seen, free_completed not yet
  bool operator==(const AllocatorBlock&) const = default;
};

class BlockTable {
 public:
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  size_t count(uint64_t addr) const { return find(addr) != nullptr ? 1 : 0; }
  const AllocatorBlock* find(uint64_t addr) const;
  AllocatorBlock* find(uint64_t addr);
  const AllocatorBlock& at(uint64_t addr) const;  // throws std::out_of_range when absent

  // Room for `count` blocks without growing.
  void reserve(size_t count);
  // Adds `block`, replacing one at the same address (returned).
  std::optional<AllocatorBlock> insert_or_assign(const AllocatorBlock& block);
  // Removes the block at `addr` (returned), if there is one.
  std::optional<AllocatorBlock> erase(uint64_t addr);

  // Every block, by address.
  std::vector<AllocatorBlock> sorted() const;
  // Every block, in no particular order (what a checkpoint keeps to rebuild the table from).
  std::vector<AllocatorBlock> unordered() const;

  bool operator==(const BlockTable& other) const;

 private:
  size_t home(uint64_t addr) const;
  size_t slot_of(uint64_t addr) const;  // the block's slot, or the empty slot where it would go
  void grow_to(size_t capacity);

  std::vector<AllocatorBlock> slots_;
  std::vector<uint8_t> used_;  // an address may be any value, so occupancy is kept apart
  size_t size_ = 0;
};

}  // namespace snapscope
