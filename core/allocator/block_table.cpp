#include "core/allocator/block_table.h"

#include <algorithm>
#include <random>
#include <stdexcept>

namespace snapscope {
namespace {

constexpr size_t kFirstCapacity = 16;  // a power of two, as every capacity

// A per-process random seed: addresses come from untrusted files, and a fixed hash would let one
// choose addresses that all land in one run of slots.
uint64_t process_seed() {
  static const uint64_t seed = (uint64_t{std::random_device{}()} << 32) ^ std::random_device{}();
  return seed;
}

uint64_t mix(uint64_t x) {  // splitmix64's finaliser
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ULL;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

}  // namespace

size_t BlockTable::home(uint64_t addr) const {
  return static_cast<size_t>(mix(addr ^ process_seed())) & (slots_.size() - 1);
}

size_t BlockTable::slot_of(uint64_t addr) const {
  const size_t mask = slots_.size() - 1;
  size_t slot = home(addr);
  while (used_[slot] != 0 && slots_[slot].addr != addr) slot = (slot + 1) & mask;
  return slot;
}

const AllocatorBlock* BlockTable::find(uint64_t addr) const {
  if (size_ == 0) return nullptr;
  const size_t slot = slot_of(addr);
  return used_[slot] != 0 ? &slots_[slot] : nullptr;
}

AllocatorBlock* BlockTable::find(uint64_t addr) {
  return const_cast<AllocatorBlock*>(static_cast<const BlockTable&>(*this).find(addr));
}

const AllocatorBlock& BlockTable::at(uint64_t addr) const {
  const AllocatorBlock* block = find(addr);
  if (block == nullptr) throw std::out_of_range("BlockTable::at: no block at that address");
  return *block;
}

void BlockTable::reserve(size_t count) {
  size_t capacity = std::max(kFirstCapacity, slots_.size());
  while (capacity < count * 2) capacity *= 2;  // at most half full: short probe runs
  if (capacity != slots_.size()) grow_to(capacity);
}

void BlockTable::grow_to(size_t capacity) {
  std::vector<AllocatorBlock> old_slots(capacity);
  std::vector<uint8_t> old_used(capacity, 0);
  old_slots.swap(slots_);
  old_used.swap(used_);
  for (size_t i = 0; i < old_slots.size(); ++i) {
    if (old_used[i] == 0) continue;
    const size_t slot = slot_of(old_slots[i].addr);
    slots_[slot] = old_slots[i];
    used_[slot] = 1;
  }
}

std::optional<AllocatorBlock> BlockTable::insert_or_assign(const AllocatorBlock& block) {
  if ((size_ + 1) * 2 > slots_.size()) reserve(size_ + 1);
  const size_t slot = slot_of(block.addr);
  std::optional<AllocatorBlock> replaced;
  if (used_[slot] != 0) {
    replaced = slots_[slot];
  } else {
    used_[slot] = 1;
    ++size_;
  }
  slots_[slot] = block;
  return replaced;
}

// Linear probing's deletion without tombstones: later blocks of the probe run move back into
// the hole when their home slot does not lie between the hole and them.
std::optional<AllocatorBlock> BlockTable::erase(uint64_t addr) {
  if (size_ == 0) return std::nullopt;
  const size_t mask = slots_.size() - 1;
  size_t hole = slot_of(addr);
  if (used_[hole] == 0) return std::nullopt;
  const AllocatorBlock removed = slots_[hole];
  for (size_t next = (hole + 1) & mask; used_[next] != 0; next = (next + 1) & mask) {
    const size_t wanted = home(slots_[next].addr);
    const bool stays = hole <= next ? (hole < wanted && wanted <= next) : (hole < wanted || wanted <= next);
    if (stays) continue;
    slots_[hole] = slots_[next];
    hole = next;
  }
  used_[hole] = 0;
  --size_;
  return removed;
}

std::vector<AllocatorBlock> BlockTable::unordered() const {
  std::vector<AllocatorBlock> blocks;
  blocks.reserve(size_);
  for (size_t i = 0; i < slots_.size(); ++i) {
    if (used_[i] != 0) blocks.push_back(slots_[i]);
  }
  return blocks;
}

std::vector<AllocatorBlock> BlockTable::sorted() const {
  std::vector<AllocatorBlock> blocks = unordered();
  std::sort(blocks.begin(), blocks.end(),
            [](const AllocatorBlock& a, const AllocatorBlock& b) { return a.addr < b.addr; });
  return blocks;
}

bool BlockTable::operator==(const BlockTable& other) const {
  if (size_ != other.size_) return false;
  for (size_t i = 0; i < slots_.size(); ++i) {
    if (used_[i] == 0) continue;
    const AllocatorBlock* theirs = other.find(slots_[i].addr);
    if (theirs == nullptr || !(*theirs == slots_[i])) return false;
  }
  return true;
}

}  // namespace snapscope
