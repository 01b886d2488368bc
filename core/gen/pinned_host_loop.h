// Pinned host memory as torch's CachingHostAllocator records it (record_pinned_host_memory=True):
// a data loader pins each batch, its copy to the GPU completes a couple of batches later, and the
// block goes back to the allocator's cache for the next batch of its size. Host blocks are never
// split: each is its own cudaHostAlloc of a power-of-two size, so a segment holds one block.
#pragma once

#include <cstdint>
#include <vector>

#include "core/gen/call_site_pool.h"
#include "core/gen/rng.h"
#include "core/gen/training_loop.h"

namespace snapscope::gen {

struct PinnedBlock {
  uint64_t address = 0;
  uint64_t size = 0;       // the power of two torch rounds the request up to
  uint64_t requested = 0;  // the batch's bytes
  uint32_t site = 0;
  bool allocated = false;
};

class PinnedHostLoop {
 public:
  PinnedHostLoop(const CallSitePool& call_sites, uint64_t seed);

  // The trace of `batches` pinned batches (segment_alloc, alloc, free_requested, free_completed).
  std::vector<GenEvent> run(uint64_t batches);
  // The allocator's blocks after run(): the host segment snapshot, in address order.
  const std::vector<PinnedBlock>& blocks() const { return blocks_; }

 private:
  size_t take_block(uint64_t requested, std::vector<GenEvent>& out);
  void release(size_t block, std::vector<GenEvent>& out);
  GenEvent event(EventKind kind, const PinnedBlock& block);

  const CallSitePool& call_sites_;
  Rng rng_;
  std::vector<PinnedBlock> blocks_;
  uint64_t next_address_;
  int64_t now_us_;
};

}  // namespace snapscope::gen
