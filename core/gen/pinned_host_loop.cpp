#include "core/gen/pinned_host_loop.h"

#include <bit>
#include <deque>

namespace snapscope::gen {
namespace {

constexpr int64_t kStartTimeUs = 1748730219595970;  // the training loops' clock
constexpr uint64_t kHostAddressBase = 0x7f5c40000000ull;
constexpr uint64_t kInFlightBatches = 2;  // pinned batches whose GPU copy is still running
constexpr uint64_t kBatchBytes[] = {3 << 20, 6 << 20, 12 << 20};

}  // namespace

PinnedHostLoop::PinnedHostLoop(const CallSitePool& call_sites, uint64_t seed)
    : call_sites_(call_sites),
      rng_(derive_seed(seed, 0x70696e)),
      next_address_(kHostAddressBase),
      now_us_(kStartTimeUs + 50) {}

std::vector<GenEvent> PinnedHostLoop::run(uint64_t batches) {
  std::vector<GenEvent> out;
  std::deque<size_t> in_flight;
  for (uint64_t batch = 0; batch < batches; ++batch) {
    // Mostly full batches; now and then a short last batch of an epoch.
    const uint64_t full = kBatchBytes[rng_.index(std::size(kBatchBytes))];
    const uint64_t requested = rng_.chance(0.1) ? full / 3 + rng_.range(0, 4096) : full;
    in_flight.push_back(take_block(requested, out));
    if (in_flight.size() > kInFlightBatches) {
      release(in_flight.front(), out);
      in_flight.pop_front();
    }
  }
  return out;
}

// A cached free block of the rounded size, else a new cudaHostAlloc (segment_alloc).
size_t PinnedHostLoop::take_block(uint64_t requested, std::vector<GenEvent>& out) {
  const uint64_t size = std::bit_ceil(requested);
  size_t found = blocks_.size();
  for (size_t i = 0; i < blocks_.size() && found == blocks_.size(); ++i)
    if (!blocks_[i].allocated && blocks_[i].size == size) found = i;
  now_us_ += static_cast<int64_t>(rng_.range(200, 3000));
  if (found == blocks_.size()) {
    blocks_.push_back(
        {next_address_, size, requested, call_sites_.pick(SiteKind::ForwardTemporary, 0, rng_), false});
    next_address_ += size;
    out.push_back(event(EventKind::SegmentAlloc, blocks_.back()));
  }
  PinnedBlock& block = blocks_[found];
  block.allocated = true;
  block.requested = requested;
  out.push_back(event(EventKind::Alloc, block));
  return found;
}

void PinnedHostLoop::release(size_t index, std::vector<GenEvent>& out) {
  PinnedBlock& block = blocks_[index];
  now_us_ += static_cast<int64_t>(rng_.range(50, 400));
  out.push_back(event(EventKind::FreeRequested, block));
  now_us_ += static_cast<int64_t>(rng_.range(100, 900));  // the copy's CUDA event completes
  out.push_back(event(EventKind::FreeCompleted, block));
  block.allocated = false;
}

GenEvent PinnedHostLoop::event(EventKind kind, const PinnedBlock& block) {
  return GenEvent{kind, block.address, block.size, 0, now_us_, block.site};
}

}  // namespace snapscope::gen
