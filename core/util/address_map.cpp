#include "core/util/address_map.h"

#include <utility>

namespace snapscope {

size_t AddressMap::home(uint64_t key) const {
  // Addresses share their low bits (alignment) and high bits (one device's range): a
  // multiplicative hash spreads them, its high bits being the best mixed.
  const uint64_t hash = (key ^ (key >> 29)) * 0x9E3779B97F4A7C15ULL;
  return static_cast<size_t>(hash >> 32) & mask();
}

const uint32_t* AddressMap::find(uint64_t key) const {
  if (key == kEmpty) return has_empty_key_ ? &empty_key_value_ : nullptr;
  for (size_t i = home(key);; i = (i + 1) & mask()) {
    const Slot& slot = slots_[i];
    if (slot.key == key) return &slot.value;
    if (slot.key == kEmpty) return nullptr;
  }
}

void AddressMap::insert_or_assign(uint64_t key, uint32_t value) {
  if (key == kEmpty) {
    has_empty_key_ = true;
    empty_key_value_ = value;
    return;
  }
  if ((size_ + 1) * 2 > slots_.size()) grow();  // at most half full: short probe runs
  for (size_t i = home(key);; i = (i + 1) & mask()) {
    Slot& slot = slots_[i];
    if (slot.key == key) {
      slot.value = value;
      return;
    }
    if (slot.key == kEmpty) {
      slot = {key, value};
      ++size_;
      return;
    }
  }
}

std::optional<uint32_t> AddressMap::erase(uint64_t key) {
  if (key == kEmpty) {
    if (!has_empty_key_) return std::nullopt;
    has_empty_key_ = false;
    return empty_key_value_;
  }
  size_t i = home(key);
  while (slots_[i].key != key) {
    if (slots_[i].key == kEmpty) return std::nullopt;
    i = (i + 1) & mask();
  }
  const uint32_t value = slots_[i].value;
  // Backward shift: move each later entry of the run into the hole when its home allows it
  // (the hole lies cyclically between its home and its slot), so lookups never stop early.
  for (size_t j = (i + 1) & mask(); slots_[j].key != kEmpty; j = (j + 1) & mask()) {
    const size_t wanted = home(slots_[j].key);
    const bool movable = ((j - wanted) & mask()) >= ((j - i) & mask());
    if (movable) {
      slots_[i] = slots_[j];
      i = j;
    }
  }
  slots_[i] = Slot{};
  --size_;
  return value;
}

void AddressMap::grow() {
  std::vector<Slot> old(slots_.size() * 2);
  old.swap(slots_);
  size_ = 0;
  for (const Slot& slot : old) {
    if (slot.key != kEmpty) insert_or_assign(slot.key, slot.value);
  }
}

}  // namespace snapscope
