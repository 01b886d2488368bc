#include "core/pickle/batch_reader.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <string_view>

#include "core/pickle/little_endian.h"
#include "core/pickle/long_value.h"
#include "core/pickle/opcodes.h"
#include "core/pickle/unpickler.h"

namespace snapscope::pickle {

namespace {

// Where a value sits, which decides the containers it may be: an item's value may be a list
// (the frames), that list's items dicts (new frames), and nothing deeper.
enum Level : int { kItemValue, kListItem, kPlain };

constexpr size_t kFrameLength = 8;  // FRAME's operand
constexpr size_t kLongestGet = 5;   // LONG_BINGET and its index

// An opcode that may follow a value and still belong to it (or hide what follows: FRAME).
bool may_memoize(uint8_t op) { return op == MEMOIZE || op == BINPUT || op == LONG_BINPUT || op == FRAME; }

}  // namespace

// Per value: these must inline into the loops that read values.
#define SNAPSCOPE_HOT [[gnu::always_inline]] inline

bool BatchReader::read(const Input& in, const Unpickler& unpickler) {
  unpickler_ = &unpickler;
  memo_ = in.memo;
  max_memo_ = in.max_memo;
  memo_base_ = in.memo_base;
  earlier_ = in.earlier;
  string_bits_ = in.string_bits;
  run_cache_.check(memo_, memo_base_);
  begin_ = p_ = in.bytes.data();
  end_ = p_ + in.bytes.size();
  items_.clear();
  fields_.clear();
  new_memo_.clear();
  try {
    for (uint8_t op = next_op(); op != APPENDS; op = next_op()) {
      if (op != EMPTY_DICT) miss();
      read_item();
    }
  } catch (const Miss&) {
    return false;
  } catch (const ReduceError&) {
    return false;  // the opcode-by-opcode parse reports it where it belongs
  }
  length_ = static_cast<size_t>(p_ - begin_);
  return !items_.empty();
}

// ---------------------------------------------------------------- input

SNAPSCOPE_HOT const uint8_t* BatchReader::take(size_t n) {
  if (static_cast<size_t>(end_ - p_) < n) miss();
  const uint8_t* at = p_;
  p_ += n;
  return at;
}

SNAPSCOPE_HOT uint8_t BatchReader::peek_op() {
  for (;;) {
    if (p_ == end_) miss();
    if (*p_ != FRAME) return *p_;
    take(1 + kFrameLength);
  }
}

SNAPSCOPE_HOT uint8_t BatchReader::next_op() {
  const uint8_t op = peek_op();
  ++p_;
  return op;
}

SNAPSCOPE_HOT uint64_t BatchReader::next_index(uint8_t get_op) {
  return get_op == BINGET ? *take(1) : load_le(take(4), 4);
}

// ---------------------------------------------------------------- memo

// A chunk parser's entry before its chunk that the scan says is no string (a frame, a frames
// list): a Kind::External value, known without asking.
SNAPSCOPE_HOT bool BatchReader::no_string_before(uint64_t index) const {
  return string_bits_ != nullptr && !may_be_string(string_bits_, index);
}

SNAPSCOPE_HOT Value BatchReader::memo_get(uint64_t index) {
  const uint64_t local = index - memo_base_;  // wraps for a chunk parser's reference back
  if (local < memo_->size()) {
    const MemoSlot& slot = memo_->data()[local];
    if (!slot.wide() && usable(static_cast<Kind>(slot.tag))) return slot.narrow_value();
  }
  return memo_get_rare(index);
}

Value BatchReader::memo_get_rare(uint64_t index) {
  if (index < memo_base_) {
    if (earlier_ == nullptr) miss();
    if (no_string_before(index)) return Value::handle(Kind::External, static_cast<uint32_t>(index));
    return earlier_->value(index);
  }
  const uint64_t local = index - memo_base_;
  const size_t defined = memo_->size();
  Value value;
  if (local < defined) {
    value = memo_->get(static_cast<size_t>(local));
  } else if (local - defined < new_memo_.size()) {
    value = new_memo_[static_cast<size_t>(local - defined)];
  } else {
    miss();  // undefined, or in the sparse memo
  }
  if (!usable(value.kind)) miss();
  return value;
}

SNAPSCOPE_HOT uint32_t BatchReader::memoize(Value value) {
  if (p_ != end_ && !may_memoize(*p_)) return kNone;
  return memoize_rare(value);
}

SNAPSCOPE_HOT Value BatchReader::memoized(Value value) {
  memoize(value);
  return value;
}

// MEMOIZE, or a PUT of the next index: anything else (overwriting an entry) is left to the
// opcode-by-opcode parse. A container's placeholder (Kind::Container) may take one entry.
uint32_t BatchReader::memoize_rare(Value value) {
  uint32_t slot = kNone;
  for (;;) {
    if (p_ == end_) return slot;
    const uint8_t op = peek_op();
    const uint64_t next = memo_->size() + new_memo_.size();  // local: after memo_base_
    if (op == MEMOIZE) {
      ++p_;
    } else if (op == BINPUT || op == LONG_BINPUT) {
      ++p_;
      if ((op == BINPUT ? *take(1) : load_le(take(4), 4)) != memo_base_ + next) miss();
    } else {
      return slot;
    }
    if (next >= max_memo_) miss();
    if (slot != kNone && value.kind == Kind::Container) miss();  // a placeholder is replaced in one entry
    slot = static_cast<uint32_t>(new_memo_.size());
    new_memo_.push_back(value);
  }
}

// ---------------------------------------------------------------- values

// EMPTY_DICT [memo] MARK key value ... SETITEMS, an item of the batch's list.
void BatchReader::read_item() {
  Item item;
  item.memo = memoize(Value::handle(Kind::Container, 0));
  if (next_op() != MARK) miss();
  item.first = static_cast<uint32_t>(fields_.size());
  uint16_t child_depth = 0;
  read_fields(fields_, kItemValue, child_depth);
  item.count = static_cast<uint32_t>(fields_.size() - item.first);
  item.depth = static_cast<uint16_t>(child_depth + 1);
  if (!reducer_.replaces_batch_item(fields(item))) miss();
  items_.push_back(item);
}

void BatchReader::read_fields(std::vector<Value>& out, int value_level, uint16_t& depth) {
  for (uint8_t op = next_op(); op != SETITEMS; op = next_op()) {
    // A key is nearly always a reference to its first use: a branch the CPU predicts, where
    // read_value's jump table mispredicts between keys and values of every kind.
    const Value key = op == BINGET || op == LONG_BINGET ? memoized(memo_get(next_index(op)))
                                                        : read_value(op, kPlain, depth);
    const Value value = read_value(next_op(), value_level, depth);
    out.push_back(key);
    out.push_back(value);
  }
}

// One value starting with opcode `op` and the memo ops right after it. A container raises
// `depth` to its own.
Value BatchReader::read_value(uint8_t op, int level, uint16_t& depth) {
  switch (op) {
    case NONE:
      return memoized(Value::none());
    case NEWTRUE:
    case NEWFALSE:
      return memoized(Value::boolean(op == NEWTRUE));
    case BININT1:
      return memoized(Value::integer(*take(1)));
    case BININT2:
      return memoized(Value::integer(static_cast<int64_t>(load_le(take(2), 2))));
    case BININT:
      return memoized(Value::integer(static_cast<int32_t>(static_cast<uint32_t>(load_le(take(4), 4)))));
    case LONG1: {
      const uint8_t n = *take(1);
      return memoized(long_value(take(n), n));
    }
    case BINFLOAT:
      return memoized(
          Value::floating(Kind::Float, std::bit_cast<double>(__builtin_bswap64(load_le(take(8), 8)))));
    case SHORT_BINUNICODE:
      return memoized(read_string(1));
    case BINUNICODE:
      return memoized(read_string(4));
    case BINGET:
    case LONG_BINGET:
      return memoized(memo_get(next_index(op)));
    case EMPTY_LIST:
      if (level != kItemValue) miss();
      return read_list(depth);
    case EMPTY_DICT:
      if (level != kListItem) miss();
      return read_inner_dict(depth);
    default:
      miss();
  }
}

Value BatchReader::read_string(size_t width) {
  const size_t n = static_cast<size_t>(load_le(take(width), width));
  const std::string_view text(reinterpret_cast<const char*>(take(n)), n);
  if (!is_valid_utf8(text)) miss();
  return Value::handle(Kind::String, strings_.intern(text));
}

// EMPTY_LIST [memo], then its items. A list that is one run of GETs reduces as the same bytes
// did before, when they did.
Value BatchReader::read_list(uint16_t& depth) {
  const uint32_t slot = memoize(Value::handle(Kind::Container, 0));
  const auto prefix_hash = run_prefix_hash();
  const uint8_t* const run = prefix_hash ? p_ + 1 : nullptr;  // just past the MARK
  if (prefix_hash) {
    const auto known = run_cache_.find(*prefix_hash, {run, static_cast<size_t>(end_ - run)});
    if (known && list_ends_at(run + known->length)) {
      p_ = run + known->length;
      depth = std::max<uint16_t>(depth, 1);
      return reduced(known->reduced, slot);
    }
  }
  const uint8_t* run_end = nullptr;
  const Value list = read_list_batches(depth, run_end);
  if (prefix_hash && run_end == p_ && !ContainerReducer::kept(list))
    run_cache_.add(*prefix_hash, {run, static_cast<size_t>(run_end - run)}, list);
  return reduced(list, slot);
}

// The list's items: MARK ... APPENDS batches, or one GET or dict and APPEND; reduced. When they
// were one batch that read_get_run took whole, `one_run_end` is just past its APPENDS.
Value BatchReader::read_list_batches(uint16_t& depth, const uint8_t*& one_run_end) {
  list_items_.clear();
  uint16_t child_depth = 0;
  size_t batches = 0;
  bool only_gets = true;
  for (;;) {
    const uint8_t op = peek_op();
    if (op == MARK) {
      ++p_;
      ++batches;
      for (;;) {
        read_get_run();
        const uint8_t item = next_op();
        if (item == APPENDS) break;
        only_gets = false;
        list_items_.push_back(read_value(item, kListItem, child_depth));
      }
      if (batches == 1 && only_gets) one_run_end = p_;
    } else if (op == EMPTY_DICT || single_append_at(p_)) {
      only_gets = false;
      list_items_.push_back(read_value(next_op(), kListItem, child_depth));
      if (next_op() != APPEND) miss();
    } else {
      break;  // the dict's next key, or its SETITEMS
    }
  }
  if (batches != 1 || !only_gets) one_run_end = nullptr;
  depth = std::max<uint16_t>(depth, static_cast<uint16_t>(child_depth + 1));
  if (list_items_.empty()) return Value::handle(Kind::EmptyList, 0);
  return reducer_.reduce_inner(ContainerKind::List, list_items_, *unpickler_);
}

// The hash a run of GETs is cached under, when the list starts with one: of its bytes from
// just after the MARK to the first byte that could be its APPENDS. Found without reading the
// GETs one by one (each one's length depends on the one before); a byte of an index that reads
// as APPENDS only makes the key cover less of the run.
std::optional<uint64_t> BatchReader::run_prefix_hash() const {
  if (static_cast<size_t>(end_ - p_) < 2 || *p_ != MARK || (p_[1] != BINGET && p_[1] != LONG_BINGET))
    return std::nullopt;
  const uint8_t* const first = p_ + 1;
  const size_t window = std::min(static_cast<size_t>(end_ - first), GetRunCache::kMaxRunBytes);
  const void* appends = std::memchr(first, APPENDS, window);
  if (appends == nullptr) return std::nullopt;
  return GetRunCache::hash({first, static_cast<size_t>(static_cast<const uint8_t*>(appends) - first)});
}

// After a batch's APPENDS: true when neither another batch nor an appended item follows, but
// the dict's next key or its SETITEMS.
bool BatchReader::list_ends_at(const uint8_t* p) const {
  if (p == end_) return false;
  return *p != MARK && *p != FRAME && *p != EMPTY_DICT && !single_append_at(p);
}

// GETs of memoised values with no memo op after them, a frames list's frames, in one loop.
void BatchReader::read_get_run() {
  const MemoSlot* const memo = memo_->data();
  const size_t defined = memo_->size();
  const uint8_t* p = p_;
  while (static_cast<size_t>(end_ - p) > kLongestGet) {
    uint64_t index;
    size_t length;
    if (*p == BINGET) {
      index = p[1];
      length = 2;
    } else if (*p == LONG_BINGET) {
      index = load_le(p + 1, 4);
      length = 5;
    } else {
      break;
    }
    if (may_memoize(p[length])) break;
    const uint64_t local = index - memo_base_;  // wraps for a chunk parser's reference back
    if (local < defined) {
      const MemoSlot& slot = memo[local];
      if (slot.wide() || !usable(static_cast<Kind>(slot.tag))) break;
      list_items_.push_back(slot.narrow_value());
    } else if (index < memo_base_ && no_string_before(index)) {
      list_items_.push_back(Value::handle(Kind::External, static_cast<uint32_t>(index)));
    } else {
      break;
    }
    p += length;
  }
  p_ = p;
}

// A GET of one item and its APPEND (a one-frame list), rather than the dict's next key.
bool BatchReader::single_append_at(const uint8_t* p) const {
  const size_t left = static_cast<size_t>(end_ - p);
  if (left > 2 && *p == BINGET) return p[2] == APPEND;
  if (left > 5 && *p == LONG_BINGET) return p[5] == APPEND;
  return false;
}

// EMPTY_DICT [memo] MARK key value ... SETITEMS inside a list (a frame).
Value BatchReader::read_inner_dict(uint16_t& depth) {
  const uint32_t slot = memoize(Value::handle(Kind::Container, 0));
  if (next_op() != MARK) miss();
  inner_fields_.clear();
  uint16_t child_depth = 0;
  read_fields(inner_fields_, kPlain, child_depth);
  depth = std::max<uint16_t>(depth, 1);
  return reduced(reducer_.reduce_inner(ContainerKind::Dict, inner_fields_, *unpickler_), slot);
}

// A container inside an item, replaced: its memo entry now holds the replacement, and so do
// the memo ops after its last opcode.
Value BatchReader::reduced(Value replacement, uint32_t slot) {
  if (ContainerReducer::kept(replacement)) miss();
  if (slot != kNone) new_memo_[slot] = replacement;
  return memoized(replacement);
}

}  // namespace snapscope::pickle
