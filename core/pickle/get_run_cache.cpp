#include "core/pickle/get_run_cache.h"

#include <algorithm>
#include <cstring>

#include "core/pickle/memo.h"

namespace snapscope::pickle {

namespace {

constexpr size_t kSets = size_t{1} << 9;  // a real trace has a few thousand distinct stacks
constexpr size_t kArenaBytes = size_t{4} << 20;
constexpr uint64_t kMultiplier = 0x9E3779B97F4A7C15ull;

uint64_t mix(uint64_t h, uint64_t word) {
  h = (h ^ word) * kMultiplier;
  return h ^ (h >> 29);
}

}  // namespace

GetRunCache::GetRunCache() : hashes_(kSets * kWays), entries_(kSets * kWays), next_way_(kSets) {
  arena_.reserve(kArenaBytes);
}

void GetRunCache::check(const MemoValues* memo, uint64_t memo_base) {
  if (memo == memo_ && memo_base == memo_base_ && (memo == nullptr || memo->overwrites() == overwrites_))
    return;
  clear();
  memo_ = memo;
  memo_base_ = memo_base;
  overwrites_ = memo == nullptr ? 0 : memo->overwrites();
}

void GetRunCache::clear() {
  std::fill(hashes_.begin(), hashes_.end(), 0);
  std::fill(next_way_.begin(), next_way_.end(), 0);
  arena_.clear();
}

// Four words spread over the bytes, and their length: the runs of one trace share their
// first frames (the allocator's own) and their last (the script's), and differ in between.
uint64_t GetRunCache::hash(std::span<const uint8_t> bytes) {
  constexpr size_t kSamples = 4;
  uint64_t h = mix(0, bytes.size());
  if (bytes.size() < 8) {
    uint64_t word = 0;
    if (!bytes.empty()) std::memcpy(&word, bytes.data(), bytes.size());
    return mix(h, word) | 1;
  }
  const size_t last = bytes.size() - 8;
  for (size_t i = 0; i < kSamples; ++i) {
    uint64_t word;
    std::memcpy(&word, bytes.data() + last * i / (kSamples - 1), 8);
    h = mix(h, word);
  }
  return h | 1;  // never 0, which marks an empty way
}

std::optional<GetRunCache::Hit> GetRunCache::find(uint64_t key_hash, std::span<const uint8_t> bytes) const {
  const size_t first = (key_hash & (kSets - 1)) * kWays;
  for (size_t i = first; i < first + kWays; ++i) {
    if (hashes_[i] != key_hash) continue;
    const Entry& entry = entries_[i];
    if (entry.length != 0 && entry.length <= bytes.size() &&
        std::memcmp(arena_.data() + entry.offset, bytes.data(), entry.length) == 0)
      return Hit{entry.reduced, entry.length};
  }
  return std::nullopt;
}

void GetRunCache::add(uint64_t key_hash, std::span<const uint8_t> run, Value reduced) {
  if (run.empty() || run.size() > kMaxRunBytes || key_hash == 0) return;  // 0: an empty way
  if (arena_.size() + run.size() > kArenaBytes) clear();
  const size_t set = key_hash & (kSets - 1);
  uint8_t& way = next_way_[set];  // round robin: the oldest entry of the set goes
  hashes_[set * kWays + way] = key_hash;
  entries_[set * kWays + way] = {static_cast<uint32_t>(arena_.size()), static_cast<uint32_t>(run.size()),
                                 reduced};
  way = static_cast<uint8_t>((way + 1) % kWays);
  arena_.insert(arena_.end(), run.begin(), run.end());
}

}  // namespace snapscope::pickle
