// The unpickler's memo, dense part: a multi-GB snapshot memoises tens of millions of values
// (every event dict and frames list), so each entry takes 5 bytes. Almost all of them end as
// a handle whose 32-bit id says everything (an event, a stack, a frame, a string); the few
// values that need more (numbers, and containers with their generation) wait in a side table
// that their slot's id indexes, and leave it when their slot is overwritten.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "core/pickle/value.h"
#include "core/util/reserved_array.h"

namespace snapscope::pickle {

struct MemoSlot {
  static constexpr uint8_t kWide = 0xFF;  // the id indexes the side table

  uint8_t tag;  // a Kind, or kWide
  uint8_t id[4];

  bool wide() const { return tag == kWide; }
  uint32_t index() const {
    uint32_t out;
    std::memcpy(&out, id, sizeof out);
    return out;
  }
  Value narrow_value() const { return Value::handle(static_cast<Kind>(tag), index()); }

  // Handles with no aux fit in a slot; None too (its payload is all zero).
  static bool fits(const Value& v) { return v.kind == Kind::None || (v.kind >= Kind::String && v.aux == 0); }
  // Written in place, field by field, as get_run reads it: a slot assembled elsewhere and
  // copied in stalled on store forwarding, once per memoised value.
  void assign(uint8_t new_tag, uint32_t new_index) {
    tag = new_tag;
    std::memcpy(id, &new_index, sizeof new_index);
  }
};
static_assert(sizeof(MemoSlot) == 5);
static_assert(static_cast<uint8_t>(Kind::External) < MemoSlot::kWide);

class MemoValues {
 public:
  explicit MemoValues(size_t max_entries) : slots_(max_entries) {}

  size_t size() const { return slots_.size(); }
  size_t capacity() const { return slots_.capacity(); }
  const MemoSlot* data() const { return slots_.begin(); }
  MemoSlot* data() { return slots_.data(); }

  Value get(size_t index) const {
    const MemoSlot& slot = slots_[index];
    return slot.wide() ? wide_[slot.index()] : slot.narrow_value();
  }
  void set(size_t index, const Value& value);  // index < size()
  void push_back(const Value& value) { assign(slots_.emplace_back(), value); }

  size_t wide_in_use() const { return wide_.size() - free_wide_.size(); }
  // How many times set() replaced a value other than a container's placeholder: what was read
  // from the memo before may read differently now (GetRunCache).
  uint64_t overwrites() const { return overwrites_; }

 private:
  // Inline: a memo PUT per event dict and frames list makes this a hot path. `value` is read
  // field by field, never copied whole (see Unpickler::memo_put).
  void assign(MemoSlot& slot, const Value& value) {
    if (MemoSlot::fits(value)) {
      slot.assign(static_cast<uint8_t>(value.kind), value.id);
    } else {
      slot.assign(MemoSlot::kWide, wide_index(value));
    }
  }
  uint32_t wide_index(const Value& value);  // a side-table entry holding `value`

  ReservedArray<MemoSlot> slots_;
  std::vector<Value> wide_;
  std::vector<uint32_t> free_wide_;  // indexes into wide_ that no slot names
  uint64_t overwrites_ = 0;
};

}  // namespace snapscope::pickle
