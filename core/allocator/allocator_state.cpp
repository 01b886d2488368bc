#include "core/allocator/allocator_state.h"

#include <iterator>

namespace snapscope {

void AllocatorState::add_segment(const AllocatorSegment& segment) {
  remove_segment(segment.addr);
  segments_[segment.addr] = segment;
  reserved_ += segment.size;
}

void AllocatorState::remove_segment(uint64_t addr) {
  auto found = segments_.find(addr);
  if (found == segments_.end()) return;
  reserved_ -= found->second.size;
  segments_.erase(found);
}

void AllocatorState::add_block(const AllocatorBlock& block) {
  if (const auto replaced = blocks_.insert_or_assign(block)) forget(*replaced);
  allocated_ += block.requested_size;
  block_bytes_ += block.size;
  if (block.pending_free) pending_ += block.requested_size;
}

void AllocatorState::remove_block(uint64_t addr) {
  if (const auto removed = blocks_.erase(addr)) forget(*removed);
}

void AllocatorState::forget(const AllocatorBlock& block) {
  allocated_ -= block.requested_size;
  block_bytes_ -= block.size;
  if (block.pending_free) pending_ -= block.requested_size;
}

void AllocatorState::set_pending(uint64_t addr, bool pending) {
  AllocatorBlock* found = blocks_.find(addr);
  if (found == nullptr || found->pending_free == pending) return;
  found->pending_free = pending;
  if (pending) {
    pending_ += found->requested_size;
  } else {
    pending_ -= found->requested_size;
  }
}

void AllocatorState::undo(const AllocatorEvent& event, const AllocatorEvent* previous,
                          const AllocatorEvent* next) {
  switch (event.action) {
    case Action::Alloc:
      remove_block(event.addr);
      break;
    case Action::FreeRequested:
      // The request half of a merged "free" changes nothing: its completion re-added the block.
      if (next == nullptr || !is_merged_free(event, *next)) set_pending(event.addr, false);
      break;
    case Action::FreeCompleted: {
      const bool merged = previous != nullptr && is_merged_free(*previous, event);
      add_block({event.addr, event.size, event.size, event.stack, !merged});
      break;
    }
    case Action::SegmentFree:
      add_segment({event.addr, event.size, event.stream, event.stack});
      break;
    case Action::SegmentUnmap:
      map_segment({event.addr, event.size, event.stream, event.stack});
      break;
    case Action::SegmentAlloc:
      remove_segment(event.addr);
      break;
    case Action::SegmentMap:
      unmap_segment(event);
      break;
    default:
      break;  // snapshot, oom, unknown: no allocator change
  }
}

// Expandable segments grow and shrink by mapping pages at their ends: an unmapped range that
// touches a neighbour on the same stream was part of it.
void AllocatorState::map_segment(AllocatorSegment segment) {
  auto next = segments_.lower_bound(segment.addr);
  if (next != segments_.end() && next->first == segment.addr + segment.size &&
      next->second.stream == segment.stream) {
    segment.size += next->second.size;
    remove_segment(next->first);
  }
  auto after = segments_.lower_bound(segment.addr);
  if (after != segments_.begin()) {
    AllocatorSegment& prev = std::prev(after)->second;
    if (prev.addr + prev.size == segment.addr && prev.stream == segment.stream) {
      prev.size += segment.size;
      reserved_ += segment.size;
      return;
    }
  }
  add_segment(segment);
}

void AllocatorState::unmap_segment(const AllocatorEvent& event) {
  const uint64_t end = event.addr + event.size;
  auto holder = segments_.upper_bound(event.addr);
  if (holder == segments_.begin()) return;
  holder = std::prev(holder);
  AllocatorSegment existing = holder->second;
  const uint64_t existing_end = existing.addr + existing.size;
  if (end > existing_end) return;  // not inside one mapped segment: nothing memory_viz could do
  remove_segment(existing.addr);
  if (existing.addr < event.addr)
    add_segment({existing.addr, event.addr - existing.addr, existing.stream, existing.stack});
  if (end < existing_end) add_segment({end, existing_end - end, existing.stream, existing.stack});
}

}  // namespace snapscope
