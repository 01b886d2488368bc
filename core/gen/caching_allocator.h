// A simplified model of PyTorch's CUDA caching allocator, enough to produce realistic segment
// events and a segment snapshot that agrees with the trace: small (<= 1 MiB) and large pools,
// per-stream free lists, best-fit with block splitting and merging, empty_cache, and
// expandable segments that grow with segment_map.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <tuple>
#include <unordered_map>
#include <vector>

namespace snapscope::gen {

enum class SegmentAction : uint8_t { Alloc, Free, Map };

struct SegmentEvent {
  SegmentAction action;
  uint64_t address;
  uint64_t size;
  uint64_t stream;
  uint32_t site;
};

struct SimBlock {
  uint64_t size = 0;
  uint64_t requested = 0;
  uint32_t site = 0;
  bool allocated = false;
  bool pending_free = false;  // freed on another stream, waiting for its events
};

struct SimSegment {
  uint64_t address = 0;
  uint64_t size = 0;
  uint64_t stream = 0;
  uint32_t site = 0;
  bool large = false;
  bool expandable = false;
  std::map<uint64_t, SimBlock> blocks;  // by address; they tile [address, address + size)
};

class CachingAllocator {
 public:
  CachingAllocator(uint64_t base_address, bool expandable_large);

  // Returns the block address; segment_alloc/segment_map events it caused go to `events`.
  uint64_t allocate(uint64_t requested, uint64_t stream, uint32_t site, std::vector<SegmentEvent>& events);
  void mark_pending_free(uint64_t address);
  void free(uint64_t address);
  void empty_cache(std::vector<SegmentEvent>& events);  // releases every fully free segment

  const SimBlock& block(uint64_t address) const;
  const std::map<uint64_t, SimSegment>& segments() const { return segments_; }
  bool expandable() const { return expandable_large_; }

  static uint64_t round_size(uint64_t requested);

 private:
  using FreeKey = std::tuple<bool, uint64_t, uint64_t, uint64_t>;  // large, stream, size, address

  SimSegment* find_fit(bool large, uint64_t stream, uint64_t size, uint64_t& address);
  SimSegment& new_segment(bool large, uint64_t stream, uint64_t size, uint32_t site,
                          std::vector<SegmentEvent>& events);
  SimSegment& grow_expandable(uint64_t stream, uint64_t size, uint32_t site,
                              std::vector<SegmentEvent>& events);
  void split_and_take(SimSegment& segment, uint64_t address, uint64_t size, uint64_t requested,
                      uint32_t site);
  void add_free(const SimSegment& segment, uint64_t address, uint64_t size);
  void remove_free(const SimSegment& segment, uint64_t address, uint64_t size);
  SimSegment& segment_of(uint64_t block_address);

  bool expandable_large_;
  uint64_t next_address_;
  std::map<uint64_t, SimSegment> segments_;
  std::set<FreeKey> free_blocks_;
  std::unordered_map<uint64_t, uint64_t> segment_by_block_;  // block address -> segment address
  std::map<uint64_t, uint64_t> expandable_by_stream_;        // stream -> segment address
};

}  // namespace snapscope::gen
