#include "core/pickle/memo.h"

#include <stdexcept>

namespace snapscope::pickle {

void MemoValues::set(size_t index, const Value& value) {
  MemoSlot& slot = slots_[index];
  const Kind old = slot.wide() ? wide_[slot.index()].kind : static_cast<Kind>(slot.tag);
  if (old != Kind::Container) ++overwrites_;
  if (slot.wide()) {
    if (MemoSlot::fits(value)) {
      free_wide_.push_back(slot.index());
      slot.assign(static_cast<uint8_t>(value.kind), value.id);
    } else {
      wide_[slot.index()] = value;  // reuse its entry
    }
    return;
  }
  assign(slot, value);
}

uint32_t MemoValues::wide_index(const Value& value) {
  uint32_t at;
  if (!free_wide_.empty()) {
    at = free_wide_.back();
    free_wide_.pop_back();
    wide_[at] = value;
  } else {
    if (wide_.size() >= UINT32_MAX) throw std::length_error("too many memo entries");
    at = static_cast<uint32_t>(wide_.size());
    wide_.push_back(value);
  }
  return at;
}

}  // namespace snapscope::pickle
