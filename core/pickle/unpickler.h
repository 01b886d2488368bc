// A safe, streaming pickle virtual machine. It understands only the data opcodes of
// protocols 0-5 (containers, strings, numbers); anything that could import or call code
// (GLOBAL, REDUCE, BUILD, ...) is refused. Strings are interned into a StringTable as they
// are read, and a ContainerReducer may replace each finished container by a compact value,
// so the whole file is never held as a generic object graph.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/pickle/memo.h"
#include "core/pickle/value.h"
#include "core/util/byte_source.h"
#include "core/util/populate_ahead.h"
#include "core/util/reserved_array.h"
#include "core/util/string_table.h"

namespace snapscope::pickle {

// Malformed or refused input. what() is one line: "<reason> at byte <offset>".
class PickleError : public std::runtime_error {
 public:
  PickleError(const std::string& reason, uint64_t offset);
  // The very first byte is no opcode: the input is something else (a text file renamed .pickle).
  // The message says so instead of naming a byte offset.
  static PickleError not_a_pickle(uint8_t first_byte);
  uint64_t offset() const { return offset_; }

 private:
  struct WholeMessage {};
  PickleError(WholeMessage, const std::string& message) : std::runtime_error(message), offset_(0) {}
  uint64_t offset_;
};

// Thrown by reducers for content of the wrong shape; the unpickler adds the byte offset.
class ReduceError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class Unpickler;
class ChunkSplicer;
class BatchReader;

class ContainerReducer {
 public:
  virtual ~ContainerReducer() = default;
  // A container of `kind` holding `items` just became an item of another container, i.e. it is
  // complete. Returns its compact replacement, or keep() to keep it as a generic container. (A
  // Value, not an optional: it comes back in two registers, and the unpickler stores it whole;
  // see finish_item.)
  virtual Value reduce(ContainerKind kind, std::span<const Value> items, const Unpickler& unpickler) = 0;

  // The batch reader (core/pickle/batch_reader.h), which these defaults turn off. Items here are
  // already reduced, never containers.
  // True when reduce() is sure to replace a dict holding `items` added to a list (it may still
  // throw ReduceError): the batch reader then leaves it to the list's APPENDS.
  virtual bool replaces_batch_item(std::span<const Value> items) const {
    (void)items;
    return false;
  }
  // reduce() of a list or dict inside such a dict, or keep() to leave the batch to the
  // opcode-by-opcode parse. It may intern, as reduce() would, but must change nothing else:
  // the batch may still be left to that parse, which then reduces it again.
  virtual Value reduce_inner(ContainerKind kind, std::span<const Value> items, const Unpickler& unpickler) {
    (void)kind;
    (void)items;
    (void)unpickler;
    return keep();
  }

  static Value keep() { return Value::handle(Kind::Container, UINT32_MAX); }
  static bool kept(Value replacement) { return replacement.kind == Kind::Container; }
};

struct UnpicklerLimits {
  static constexpr size_t kMinMemo = size_t{1} << 27;

  uint32_t max_depth = 1000;           // container nesting and open MARKs
  size_t max_stack = size_t{1} << 26;  // values on the VM stack
  size_t max_memo = kMinMemo;          // memo entries

  // The limits for an input of `bytes` (unknown: gzip). The memo cap grows with the input, one
  // entry per 16 bytes: PyTorch's dumps need one per ~90 bytes (a 12 GB scaled snapshot passes
  // 2^27 entries), and a hostile file still gets at most 5 bytes of memo per 16 it holds.
  static UnpicklerLimits for_input(std::optional<uint64_t> bytes);
};

// A chunk parser's view of the memo entries defined before its chunk.
class ExternalMemo {
 public:
  virtual ~ExternalMemo() = default;
  // The UTF-8 bytes of memo entry `index` when it is a string the chunk parser may intern (it
  // checks them as the opcode that wrote them would); nullopt makes it a Kind::External value.
  virtual std::optional<std::string> string(uint64_t index) = 0;
};

// Where a chunk parser starts: see Unpickler::run_chunk.
struct ChunkStart {
  uint64_t offset = 0;     // stream offset of the source's first byte
  uint64_t memo_base = 0;  // memo entries defined before it
  ExternalMemo* external = nullptr;
  // Optional: bit i set when memo entry i < memo_base may be a string (ChunkPlan::string_bits);
  // a clear bit makes a reference back Kind::External without asking `external`.
  const uint64_t* string_bits = nullptr;
};

// ChunkStart::string_bits' answer for memo entry `index`: may it be a string? (Yes without bits.)
// The scan publishes bits while chunk parsers read them, hence the atomic load.
inline bool may_be_string(const uint64_t* string_bits, uint64_t index) {
  if (string_bits == nullptr) return true;
  const uint64_t word =
      std::atomic_ref<const uint64_t>(string_bits[index / 64]).load(std::memory_order_relaxed);
  return (word >> (index % 64)) & 1;
}

class Unpickler {
 public:
  Unpickler(ByteSource& source, StringTable& strings, ContainerReducer* reducer = nullptr,
            UnpicklerLimits limits = {});
  ~Unpickler();
  Unpickler(const Unpickler&) = delete;
  Unpickler& operator=(const Unpickler&) = delete;

  // Runs until STOP and returns the pickled object. Bytes after STOP are not read.
  Value run();

  // Parses a chunk (core/pickle/chunk_scan.h: batches MARK items APPENDS) as if each batch added
  // to a new list, which it returns; the source holds exactly the chunk. Memo references below
  // start.memo_base resolve through start.external. Throws PickleError for anything the whole
  // file's parse would do otherwise (the caller then leaves the chunk to it), including a batch
  // whose items do not all become trace events. Call once, on a new unpickler.
  Value run_chunk(const ChunkStart& start);

  // Chunks parsed apart are spliced in at their first MARK (see ChunkSplicer). Before run().
  void set_splicer(ChunkSplicer* splicer);
  // Whether a list's batch of dicts may be read whole by the batch reader (on by default, with a
  // reducer that takes it; off, every opcode is read one by one: the reference for tests).
  // Before run().
  void read_batches(bool on);
  uint64_t batch_items_read() const { return batch_items_read_; }
  // Memo entry `index` (a whole-file unpickler's), when it is defined.
  std::optional<Value> memo_at(uint64_t index) const;
  // A chunk parser's memo entry start.memo_base + i, while there is one (dense entries only).
  std::optional<Value> chunk_memo(size_t i) const {
    return i < memo_.size() ? std::optional<Value>(memo_.get(i)) : std::nullopt;
  }
  bool has_sparse_memo() const { return !sparse_memo_.empty(); }

  const Container& container(Value value) const;  // value.kind must be Kind::Container
  std::string_view string(Value value) const { return strings_.view(value.id); }
  const std::string& bytes(Value value) const { return bytes_[value.id]; }
  const StringTable& strings() const { return strings_; }
  uint64_t offset() const { return base_ + pos_; }

  // While APPEND / APPENDS add items to a list L that is itself being built inside another
  // list's open MARK (a list of lists, as `device_traces` is): the index L will have in that
  // parent, and the value just below the parent on the stack (its key when the parent is a
  // dict value being built). Lets a reducer tell which inner list an item lands in before the
  // outer list is complete; empty in every other case.
  struct ListSlot {
    Value parent_key;
    size_t index = 0;
  };
  const std::optional<ListSlot>& list_slot() const { return list_slot_; }

 private:
  // Input
  const uint8_t* take(size_t n, const char* what);
  void fill(size_t n, const char* what);
  void view_from_here(size_t n, const char* what);
  std::string_view read_line(const char* what);
  uint64_t read_length(size_t width, const char* what);

  // Dispatch
  void step(uint8_t op);
  [[noreturn]] void fail(const std::string& reason) const;
  [[noreturn]] void refuse(uint8_t op) const;

  // Stack and marks
  void push(Value value);
  Value pop();
  Value& top();
  size_t pop_mark();
  void check_underflow(size_t needed) const;

  // Scalars
  void push_string(std::string_view utf8);
  void push_bytes(std::string_view raw);
  void push_long(const uint8_t* le, uint64_t n);
  void push_decimal(std::string_view text, bool bool_forms);
  void load_text_float();
  void load_text_string();
  void load_raw_unicode();
  void load_binunicode(size_t width);
  void load_binstring(size_t width);
  void load_binbytes(size_t width);

  // Memo
  void memo_put(uint64_t index);
  void memo_get(uint64_t index);
  void get_run();
  void push_reference(Value value);
  Value memo_value(uint64_t index);
  Value external_value(uint64_t index);
  void memo_append(const Value& value);

  // Batches (see BatchReader)
  class EarlierEntries;
  bool read_batch();
  void ensure_batch_window();
  void commit_batch(Value target);

  // Splicing (see ChunkSplicer)
  bool splice_at_mark();
  bool try_splice();
  void skip_to(uint64_t stream_offset);

  // Containers
  Value new_container(ContainerKind kind);
  Container& live(Value value);
  void add_items(Value target, size_t first, ContainerKind expected, const char* op);
  std::optional<ListSlot> slot_in_parent_list(size_t position) const;
  size_t plain_prefix(size_t first) const;
  void add_one(Container& target, uint32_t target_id, Value item);
  void raise_depth(Container& target, uint32_t item_depth);
  void add_reduced(Container& target, Value item);
  void append_event_run(Container& list, Value run);
  Value finish_item(Value item);
  void rewrite_memo(const Container& container, uint32_t id, Value replacement);
  void recycle_pending();
  void build_from_mark(ContainerKind kind);
  void build_tuple(size_t count);
  void build_dict_from_mark();

  ByteSource& source_;
  StringTable& strings_;
  ContainerReducer* reducer_;
  UnpicklerLimits limits_;

  bool lent_ = false;  // the source lends its bytes: data_ points into them, buf_ stays empty
  std::vector<uint8_t> buf_;
  const uint8_t* data_ = nullptr;  // the window: buf_.data(), or the source's bytes
  size_t pos_ = 0;
  size_t end_ = 0;
  uint64_t base_ = 0;       // stream offset of data_[0]
  uint64_t op_offset_ = 0;  // stream offset of the opcode being run
  uint8_t op_ = 0;
  bool stopped_ = false;
  int protocol_ = 0;

  ReservedArray<Value> stack_;  // reserved for limits.max_stack values
  std::vector<size_t> marks_;
  std::optional<ListSlot> list_slot_;                // see list_slot()
  MemoValues memo_;                                  // reserved for limits.max_memo entries
  std::unordered_map<uint64_t, Value> sparse_memo_;  // PUT indices far beyond memo_.size()
  std::unordered_multimap<uint32_t, uint64_t> extra_memo_slots_;
  // Populates memo_'s pages ahead of memo_put for a big input. Declared after memo_: it stops first.
  std::unique_ptr<PopulateAhead> memo_pages_;

  std::vector<Container> containers_;
  std::vector<uint32_t> free_containers_;
  std::vector<uint32_t> pending_;  // containers reduced this opcode, recycled after it
  std::vector<std::string> bytes_;

  // A chunk parser's memo holds entries from memo_base_ on (memo_[i] is entry memo_base_ + i).
  uint64_t memo_base_ = 0;
  ExternalMemo* external_ = nullptr;
  const uint64_t* string_bits_ = nullptr;
  bool maybe_string(uint64_t index) const;
  std::unordered_map<uint64_t, Value> external_strings_;
  // The strings referred back to most (a trace entry's keys), direct-mapped by memo index.
  struct RecentExternal {
    uint64_t index = UINT64_MAX;
    Value value;
  };
  std::vector<RecentExternal> recent_externals_;
  std::unique_ptr<BatchReader> batches_;             // null: batches are read opcode by opcode
  std::unique_ptr<EarlierEntries> earlier_entries_;  // a chunk parser's, for batches_
  uint64_t batch_items_read_ = 0;
  ChunkSplicer* splicer_ = nullptr;
  uint64_t next_splice_ = UINT64_MAX;  // the MARK offset at which to ask splicer_ again
};

// The state at a chunk's first MARK that the scan predicted (chunk_scan.h: PickleChunk).
struct SpliceState {
  uint64_t memo_size = 0;
  uint64_t depth = 0;                       // values on the stack plus open MARKs
  std::optional<Unpickler::ListSlot> slot;  // where the list on top of the stack sits
};

// A chunk's result in the whole file's terms, merged into the reducer's tables in file order.
struct SplicedChunk {
  uint64_t end = 0;          // stream offset just past the chunk
  std::vector<Value> memo;   // entries memo_size, memo_size + 1, ...
  std::vector<Value> items;  // added to the list on top of the stack (EventRun or None)
};

class ChunkSplicer {
 public:
  virtual ~ChunkSplicer() = default;
  // The stream offset of the next chunk start at or after `offset`, or a later offset at which
  // to ask again when none is known yet.
  virtual uint64_t next_start(uint64_t offset) = 0;
  // The chunk whose MARK at `offset` was just read; false leaves it to the unpickler.
  virtual bool splice(uint64_t offset, const SpliceState& state, const Unpickler& unpickler,
                      SplicedChunk& out) = 0;
};

// Python-like text of a value ("{'a': [1, 2]}") for tests and diagnostics. Longer text is cut at
// `max_bytes` and ends in "...": shared containers can describe 2^n characters in n bytes.
inline constexpr size_t kDefaultReprBytes = size_t{16} << 10;
std::string repr(Value value, const Unpickler& unpickler, size_t max_bytes = kDefaultReprBytes);

// True when `text` is valid UTF-8 without surrogates or overlong forms.
bool is_valid_utf8(std::string_view text);

}  // namespace snapscope::pickle
