#include "core/gen/caching_allocator.h"

#include <iterator>
#include <stdexcept>

namespace snapscope::gen {
namespace {

constexpr uint64_t kMiB = 1ull << 20;
constexpr uint64_t kMinBlock = 512;
constexpr uint64_t kSmallLimit = kMiB;  // allocations up to 1 MiB use the small pool
constexpr uint64_t kSmallSegment = 2 * kMiB;
constexpr uint64_t kLargeSegment = 20 * kMiB;        // for allocations below 10 MiB
constexpr uint64_t kExpandableReserve = 1ull << 40;  // address space kept per expandable segment

uint64_t round_up(uint64_t value, uint64_t multiple) { return (value + multiple - 1) / multiple * multiple; }

uint64_t segment_size_for(uint64_t size) {
  if (size <= kSmallLimit) return kSmallSegment;
  if (size < 10 * kMiB) return kLargeSegment;
  return round_up(size, 2 * kMiB);
}

// The caching allocator only splits off a remainder worth keeping.
bool should_split(bool large, uint64_t remaining) {
  return large ? remaining > kSmallLimit : remaining >= kMinBlock;
}

}  // namespace

CachingAllocator::CachingAllocator(uint64_t base_address, bool expandable_large)
    : expandable_large_(expandable_large), next_address_(base_address) {}

uint64_t CachingAllocator::round_size(uint64_t requested) {
  return requested < kMinBlock ? kMinBlock : round_up(requested, kMinBlock);
}

uint64_t CachingAllocator::allocate(uint64_t requested, uint64_t stream, uint32_t site,
                                    std::vector<SegmentEvent>& events) {
  const uint64_t size = round_size(requested);
  const bool large = size > kSmallLimit;
  uint64_t address = 0;
  SimSegment* segment = find_fit(large, stream, size, address);
  if (segment == nullptr) {
    if (large && expandable_large_) {
      segment = &grow_expandable(stream, size, site, events);
      segment = find_fit(large, stream, size, address);
    } else {
      segment = &new_segment(large, stream, size, site, events);
      address = segment->address;
    }
  }
  split_and_take(*segment, address, size, requested, site);
  return address;
}

SimSegment* CachingAllocator::find_fit(bool large, uint64_t stream, uint64_t size, uint64_t& address) {
  auto it = free_blocks_.lower_bound(FreeKey{large, stream, size, 0});
  if (it == free_blocks_.end() || std::get<0>(*it) != large || std::get<1>(*it) != stream) return nullptr;
  address = std::get<3>(*it);
  return &segment_of(address);
}

SimSegment& CachingAllocator::new_segment(bool large, uint64_t stream, uint64_t size, uint32_t site,
                                          std::vector<SegmentEvent>& events) {
  const uint64_t segment_size = segment_size_for(size);
  SimSegment segment{next_address_, segment_size, stream, site, large, false, {}};
  next_address_ += round_up(segment_size, 2 * kMiB);
  segment.blocks[segment.address] = SimBlock{segment_size, 0, 0, false, false};
  auto& stored = segments_[segment.address] = std::move(segment);
  segment_by_block_[stored.address] = stored.address;
  add_free(stored, stored.address, segment_size);
  events.push_back({SegmentAction::Alloc, stored.address, segment_size, stream, site});
  return stored;
}

// Maps more memory at the end of the stream's expandable segment (creating it if needed).
SimSegment& CachingAllocator::grow_expandable(uint64_t stream, uint64_t size, uint32_t site,
                                              std::vector<SegmentEvent>& events) {
  auto found = expandable_by_stream_.find(stream);
  if (found == expandable_by_stream_.end()) {
    SimSegment segment{next_address_, 0, stream, site, true, true, {}};
    next_address_ += kExpandableReserve;
    found = expandable_by_stream_.emplace(stream, segment.address).first;
    segments_[segment.address] = std::move(segment);
  }
  SimSegment& segment = segments_[found->second];
  uint64_t tail_free = 0;
  uint64_t tail_address = segment.address + segment.size;
  if (!segment.blocks.empty()) {
    auto last = std::prev(segment.blocks.end());
    if (!last->second.allocated) {
      tail_free = last->second.size;
      tail_address = last->first;
    }
  }
  const uint64_t grow = round_up(size - tail_free, kLargeSegment);
  events.push_back({SegmentAction::Map, segment.address + segment.size, grow, stream, site});
  if (tail_free > 0) remove_free(segment, tail_address, tail_free);
  segment.blocks[tail_address] = SimBlock{tail_free + grow, 0, 0, false, false};
  segment_by_block_[tail_address] = segment.address;
  segment.size += grow;
  add_free(segment, tail_address, tail_free + grow);
  return segment;
}

void CachingAllocator::split_and_take(SimSegment& segment, uint64_t address, uint64_t size,
                                      uint64_t requested, uint32_t site) {
  SimBlock& block = segment.blocks.at(address);
  remove_free(segment, address, block.size);
  const uint64_t remaining = block.size - size;
  if (should_split(segment.large, remaining)) {
    block.size = size;
    segment.blocks[address + size] = SimBlock{remaining, 0, 0, false, false};
    segment_by_block_[address + size] = segment.address;
    add_free(segment, address + size, remaining);
  }
  SimBlock& taken = segment.blocks.at(address);
  taken.allocated = true;
  taken.requested = requested;
  taken.site = site;
  taken.pending_free = false;
}

void CachingAllocator::mark_pending_free(uint64_t address) {
  segment_of(address).blocks.at(address).pending_free = true;
}

void CachingAllocator::free(uint64_t address) {
  SimSegment& segment = segment_of(address);
  auto it = segment.blocks.find(address);
  if (it == segment.blocks.end() || !it->second.allocated)
    throw std::logic_error("gen: free of a free block");
  it->second = SimBlock{it->second.size, 0, 0, false, false};
  // Merge with free neighbours so the segment can become one free block again.
  if (auto next = std::next(it); next != segment.blocks.end() && !next->second.allocated) {
    remove_free(segment, next->first, next->second.size);
    it->second.size += next->second.size;
    segment_by_block_.erase(next->first);
    segment.blocks.erase(next);
  }
  if (it != segment.blocks.begin()) {
    if (auto prev = std::prev(it); !prev->second.allocated) {
      remove_free(segment, prev->first, prev->second.size);
      prev->second.size += it->second.size;
      segment_by_block_.erase(it->first);
      segment.blocks.erase(it);
      it = prev;
    }
  }
  add_free(segment, it->first, it->second.size);
}

void CachingAllocator::empty_cache(std::vector<SegmentEvent>& events) {
  for (auto it = segments_.begin(); it != segments_.end();) {
    SimSegment& segment = it->second;
    const bool fully_free = segment.blocks.size() == 1 && !segment.blocks.begin()->second.allocated;
    if (segment.expandable || !fully_free) {
      ++it;
      continue;
    }
    remove_free(segment, segment.address, segment.size);
    segment_by_block_.erase(segment.address);
    events.push_back({SegmentAction::Free, segment.address, segment.size, segment.stream, segment.site});
    it = segments_.erase(it);
  }
}

const SimBlock& CachingAllocator::block(uint64_t address) const {
  const uint64_t segment_address = segment_by_block_.at(address);
  return segments_.at(segment_address).blocks.at(address);
}

SimSegment& CachingAllocator::segment_of(uint64_t block_address) {
  return segments_.at(segment_by_block_.at(block_address));
}

void CachingAllocator::add_free(const SimSegment& segment, uint64_t address, uint64_t size) {
  free_blocks_.insert(FreeKey{segment.large, segment.stream, size, address});
}

void CachingAllocator::remove_free(const SimSegment& segment, uint64_t address, uint64_t size) {
  free_blocks_.erase(FreeKey{segment.large, segment.stream, size, address});
}

}  // namespace snapscope::gen
