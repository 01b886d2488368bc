// Reads a list's batch of dicts, `MARK dict dict ... APPENDS`, straight from the bytes instead of
// opcode by opcode: a trace list's batches of entries are most of a real snapshot. It takes the
// shapes a trace entry has (keys and values that are numbers, strings or memoised values; a
// list of memoised values or of small dicts, the frames) and nothing else. It reduces the lists
// and dicts inside an item as it reaches their end, through ContainerReducer::reduce_inner, and
// leaves each item's own reduction to the unpickler, at the APPENDS, where the opcode-by-opcode
// parse does it. A batch of any other shape, or one that does not end inside the bytes given,
// is left to that parse, which then reads it as if it had not been tried: until the batch is
// taken, reading it only interns (strings, frames, stacks), and that parse interns the same
// things in the same order, so to the same ids.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "core/pickle/get_run_cache.h"
#include "core/pickle/memo.h"
#include "core/pickle/value.h"
#include "core/util/string_table.h"

namespace snapscope::pickle {

class ContainerReducer;
class Unpickler;

class BatchReader {
 public:
  static constexpr uint32_t kNone = UINT32_MAX;

  struct Item {
    uint32_t first = 0;  // its keys and values, alternating, in fields()
    uint32_t count = 0;
    uint32_t memo = kNone;  // its own memo entry, an index into new_memo()
    uint16_t depth = 1;     // as Container::depth counts it
  };

  // A chunk parser's references back to memo entries before its chunk (Unpickler::run_chunk):
  // a String when the entry is one it may intern, else Kind::External.
  class EarlierMemo {
   public:
    virtual ~EarlierMemo() = default;
    virtual Value value(uint64_t index) = 0;
  };

  struct Input {
    std::span<const uint8_t> bytes;  // from just after the batch's MARK
    const MemoValues* memo = nullptr;
    size_t max_memo = 0;  // UnpicklerLimits::max_memo
    // A chunk parser's: memo entry memo_base is (*memo)[0]; entries below are `earlier`'s, and
    // a clear bit in `string_bits` (ChunkStart::string_bits) says one is no string.
    uint64_t memo_base = 0;
    EarlierMemo* earlier = nullptr;
    const uint64_t* string_bits = nullptr;
  };

  BatchReader(StringTable& strings, ContainerReducer& reducer) : strings_(strings), reducer_(reducer) {}

  // True when `in` starts a whole batch of that shape, through its APPENDS, every item of which
  // ContainerReducer::replaces_batch_item; the accessors below then describe it.
  bool read(const Input& in, const Unpickler& unpickler);

  std::span<const Item> items() const { return items_; }
  std::span<const Value> fields(const Item& item) const { return {fields_.data() + item.first, item.count}; }
  // The memo entries the batch defines, the memo's next ones in order. An item's own entry
  // holds a placeholder (Kind::Container) until the unpickler reduces the item.
  std::span<Value> new_memo() { return new_memo_; }
  size_t length() const { return length_; }  // bytes read, the APPENDS last

 private:
  struct Miss {};  // the batch is not one this reader takes
  [[noreturn]] static void miss() { throw Miss{}; }

  // Input
  const uint8_t* take(size_t n);
  uint8_t next_op();  // skips FRAMEs
  uint8_t peek_op();  // skips FRAMEs, consumes nothing else
  uint64_t next_index(uint8_t get_op);

  // Values
  void read_item();
  void read_fields(std::vector<Value>& out, int value_level, uint16_t& depth);
  Value read_value(uint8_t op, int level, uint16_t& depth);
  Value read_string(size_t width);
  Value read_list(uint16_t& depth);
  Value read_list_batches(uint16_t& depth, const uint8_t*& one_run_end);
  std::optional<uint64_t> run_prefix_hash() const;
  bool list_ends_at(const uint8_t* p) const;
  bool single_append_at(const uint8_t* p) const;
  Value read_inner_dict(uint16_t& depth);
  Value reduced(Value replacement, uint32_t slot);

  void read_get_run();

  // Memo
  // A value the reader can take as it is: not a container, which needs the opcode-by-opcode
  // bookkeeping (incomplete, or kept generic).
  static bool usable(Kind kind) { return kind != Kind::Container; }
  bool no_string_before(uint64_t index) const;
  Value memo_get(uint64_t index);
  Value memo_get_rare(uint64_t index);
  uint32_t memoize(Value value);  // the memo ops right after a value; the last new entry or kNone
  uint32_t memoize_rare(Value value);
  Value memoized(Value value);

  StringTable& strings_;
  ContainerReducer& reducer_;
  const Unpickler* unpickler_ = nullptr;
  const MemoValues* memo_ = nullptr;
  size_t max_memo_ = 0;
  uint64_t memo_base_ = 0;
  EarlierMemo* earlier_ = nullptr;
  const uint64_t* string_bits_ = nullptr;
  const uint8_t* begin_ = nullptr;
  const uint8_t* p_ = nullptr;
  const uint8_t* end_ = nullptr;
  size_t length_ = 0;

  std::vector<Item> items_;
  std::vector<Value> fields_;        // the items' keys and values
  std::vector<Value> list_items_;    // the list being read inside an item
  std::vector<Value> inner_fields_;  // the dict being read inside that list
  std::vector<Value> new_memo_;
  GetRunCache run_cache_;
};

}  // namespace snapscope::pickle
