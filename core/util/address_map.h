// A hash map from 64-bit keys (device addresses) to 32-bit values, in one flat array with
// linear probing. Replaying a trace inserts and erases an entry per allocation, millions of
// times, while only the live allocations are in the map: a node-based map paid an allocation
// and a free for each (most of deriving a 1 GB snapshot's replay input). Erasing shifts the
// following entries back, so the table never fills with tombstones.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace snapscope {

class AddressMap {
 public:
  AddressMap() : slots_(kMinCapacity) {}

  size_t size() const { return size_ + (has_empty_key_ ? 1 : 0); }
  bool contains(uint64_t key) const { return find(key) != nullptr; }

  // The value stored for `key`, or null. Valid until the next insertion or erasure.
  const uint32_t* find(uint64_t key) const;
  // Sets `key`'s value, adding the key when it is not there.
  void insert_or_assign(uint64_t key, uint32_t value);
  // Removes `key` and returns its value; nullopt when it was not there.
  std::optional<uint32_t> erase(uint64_t key);

 private:
  // The key that marks an empty slot. A real entry with this key lives beside the table.
  static constexpr uint64_t kEmpty = ~uint64_t{0};
  static constexpr size_t kMinCapacity = 64;  // a power of two

  struct Slot {
    uint64_t key = kEmpty;
    uint32_t value = 0;
  };

  size_t home(uint64_t key) const;
  size_t mask() const { return slots_.size() - 1; }
  void grow();

  std::vector<Slot> slots_;
  size_t size_ = 0;  // entries in slots_
  bool has_empty_key_ = false;
  uint32_t empty_key_value_ = 0;
};

}  // namespace snapscope
