// The caching allocator's segments and blocks at one moment, as memory_viz's "Allocator State
// History" reconstructs them: start from the end-of-trace segment snapshot and undo trace events
// backwards. Only the undo direction exists, on purpose: a block re-added by undoing its free
// gets the free event's size (as memory_viz does), so redoing would not restore the snapshot.
#pragma once

#include <cstdint>
#include <map>

#include "core/allocator/block_table.h"
#include "core/snapshot/model.h"

namespace snapscope {

struct AllocatorSegment {
  uint64_t addr = 0;
  uint64_t size = 0;
  uint64_t stream = 0;
  StackId stack = 0;
  bool operator==(const AllocatorSegment&) const = default;
};

// One raw trace event, reduced to what the undo needs.
struct AllocatorEvent {
  uint64_t addr = 0;  // oom: bytes free on the device
  uint64_t size = 0;
  uint64_t stream = 0;
  StackId stack = 0;
  Action action = Action::Unknown;
};

// annotate_snapshot's merge: a free_completed directly after a free_requested of the same address
// is one "free", so the block is never shown pending between the two.
inline bool is_merged_free(const AllocatorEvent& request, const AllocatorEvent& completion) {
  return request.action == Action::FreeRequested && completion.action == Action::FreeCompleted &&
         request.addr == completion.addr;
}

class AllocatorState {
 public:
  using SegmentMap = std::map<uint64_t, AllocatorSegment>;  // by address

  const SegmentMap& segments() const { return segments_; }
  const BlockTable& blocks() const { return blocks_; }     // unordered: blocks().sorted() for address order
  uint64_t reserved_bytes() const { return reserved_; }    // sum of segment sizes
  uint64_t allocated_bytes() const { return allocated_; }  // sum of requested sizes (memory_viz's "occupied")
  uint64_t block_bytes() const { return block_bytes_; }    // sum of block sizes (with rounding)
  uint64_t pending_free_bytes() const { return pending_; }

  void add_segment(const AllocatorSegment& segment);  // replaces one at the same address
  void add_block(const AllocatorBlock& block);        // replaces one at the same address
  void reserve_blocks(size_t count) { blocks_.reserve(count); }

  // Undoes `event`; `previous` / `next` are the raw events around it (nullptr at the trace ends),
  // needed to recognise merged free_requested+free_completed pairs.
  void undo(const AllocatorEvent& event, const AllocatorEvent* previous, const AllocatorEvent* next);

  bool operator==(const AllocatorState& other) const {
    return segments_ == other.segments_ && blocks_ == other.blocks_;
  }

 private:
  void remove_block(uint64_t addr);
  void forget(const AllocatorBlock& block);  // takes a removed or replaced block out of the totals
  void set_pending(uint64_t addr, bool pending);
  void remove_segment(uint64_t addr);
  void map_segment(AllocatorSegment segment);       // undo of segment_unmap: merge with neighbours
  void unmap_segment(const AllocatorEvent& event);  // undo of segment_map: trim or split

  SegmentMap segments_;
  BlockTable blocks_;
  uint64_t reserved_ = 0, allocated_ = 0, block_bytes_ = 0, pending_ = 0;
};

}  // namespace snapscope
