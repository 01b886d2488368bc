#include "core/pickle/chunk_scan.h"

#include <algorithm>
#include <cstring>

#include "core/pickle/little_endian.h"
#include "core/pickle/opcodes.h"
#include "core/util/reserved_array.h"

namespace snapscope::pickle {

ChunkPlan::ChunkPlan(uint64_t input_bytes, uint64_t min_chunk_bytes)
    : chunks_(static_cast<size_t>(input_bytes / std::max<uint64_t>(min_chunk_bytes, 1) + 1)),
      // A string memo entry takes at least 3 bytes: the opcode, its length, MEMOIZE.
      blocks_(static_cast<size_t>((input_bytes / 3 + 1) / kBlock + 1)),
      // A memo entry takes at least 2 bytes: a value's opcode and MEMOIZE.
      string_bit_words_(static_cast<size_t>(input_bytes / 2 / 64 + 1)) {
  string_bits_ = static_cast<uint64_t*>(reserved_memory::reserve(string_bit_words_ * sizeof(uint64_t)));
}

ChunkPlan::~ChunkPlan() { reserved_memory::release(string_bits_, string_bit_words_ * sizeof(uint64_t)); }

void ChunkPlan::add_string(StringMemo entry) {
  const size_t i = strings_added_;
  if ((i >> kBlockBits) >= blocks_.size()) return;  // cannot happen within the bound; stay safe
  auto& block = blocks_[i >> kBlockBits];
  if (!block) block = std::make_unique<StringMemo[]>(kBlock);
  block[i & (kBlock - 1)] = entry;
  ++strings_added_;
  if (entry.index / 64 < string_bit_words_) {
    std::atomic_ref<uint64_t>(string_bits_[entry.index / 64])
        .fetch_or(uint64_t{1} << (entry.index % 64), std::memory_order_relaxed);
  }
}

void ChunkPlan::publish(const PickleChunk& chunk) {
  const size_t n = chunk_count_.load(std::memory_order_relaxed);
  if (n >= chunks_.size()) return;
  chunks_[n] = chunk;
  string_count_.store(strings_added_, std::memory_order_release);
  chunk_count_.store(n + 1, std::memory_order_release);
}

std::optional<uint64_t> ChunkPlan::string_offset(uint64_t index) const {
  // Entries are added in memo order: a binary search over what is published.
  size_t low = 0;
  size_t high = string_count_.load(std::memory_order_acquire);
  while (low < high) {
    const size_t mid = low + (high - low) / 2;
    if (string_entry(mid).index < index) {
      low = mid + 1;
    } else {
      high = mid;
    }
  }
  if (low < string_count_.load(std::memory_order_acquire) && string_entry(low).index == index)
    return string_entry(low).offset;
  return std::nullopt;
}

namespace {

constexpr size_t kWindowBytes = size_t{8} << 20;
constexpr size_t kLongestHeader = 9;       // an opcode and an 8-byte argument
constexpr uint64_t kMinBatchBytes = 4096;  // smaller batches (a frames list) never start a chunk
constexpr uint32_t kCancelCheckEvery = 1u << 20;
// The unpickler's own limits are far lower; a hostile file ends the scan here, not in memory.
constexpr size_t kMaxStack = size_t{1} << 26;
constexpr size_t kMaxMarks = size_t{1} << 16;

// The input through a large window, refilled at the position asked for: in place where the
// source holds its bytes in memory (a mapped file), else copied with read_at.
class Window {
 public:
  Window(const ByteSource& source, uint64_t size)
      : source_(source), in_place_(source.bytes_in_place()), size_(size) {
    if (in_place_.size() < size_) in_place_ = {};
    if (in_place_.empty()) buffer_.resize(kWindowBytes);
  }

  // The bytes from `offset` on, at least `n` of them unless the input ends first; `available`
  // says how many. Refills when fewer than `n` are in the window.
  const uint8_t* at(uint64_t offset, size_t n, size_t& available) {
    if (offset < begin_ || offset + n > begin_ + length_) refill(offset);
    available = static_cast<size_t>(begin_ + length_ - offset);
    return data_ + (offset - begin_);
  }
  // The same, after reading the window afresh from `offset` (a text line longer than what is left).
  const uint8_t* refilled(uint64_t offset, size_t& available) {
    refill(offset);
    available = length_;
    return data_;
  }
  uint64_t size() const { return size_; }

 private:
  void refill(uint64_t offset) {
    begin_ = offset;
    if (!in_place_.empty()) {
      data_ = in_place_.data() + std::min(offset, size_);
      length_ = offset >= size_ ? 0 : static_cast<size_t>(std::min<uint64_t>(kWindowBytes, size_ - offset));
      return;
    }
    data_ = buffer_.data();
    length_ = offset >= size_ ? 0 : source_.read_at(offset, std::span(buffer_.data(), buffer_.size()));
  }

  const ByteSource& source_;
  std::span<const uint8_t> in_place_;  // the whole input, or empty
  uint64_t size_;
  std::vector<uint8_t> buffer_;  // the window's copy, without in_place_
  const uint8_t* data_ = nullptr;
  uint64_t begin_ = 0;
  size_t length_ = 0;
};

// The VM stack as the scan models it: per value, 1 + the stream offset of the string opcode
// that pushed it, or 0 for any other value. Sized by hand: a vector's resize, called once per
// run of GETs and per pop, was a fifth of the scan's time.
class ScanStack {
 public:
  size_t size() const { return size_; }
  // False, and nothing pushed, past kMaxStack values.
  bool push_other() { return push_slot(0); }
  bool push_string(uint64_t op_offset) { return push_slot(op_offset + 1); }
  bool push_others(size_t count) {
    if (count > kMaxStack - size_) return false;
    reserve(size_ + count);
    for (size_t i = 0; i < count; ++i) slots_[size_ + i] = 0;  // values that are no strings
    size_ += count;
    return true;
  }
  void truncate(size_t size) { size_ = std::min(size, size_); }
  // The offset of the string opcode that pushed the top value, if it is a string (size() > 0).
  std::optional<uint64_t> top_string() const {
    const uint64_t slot = slots_[size_ - 1];
    return slot == 0 ? std::nullopt : std::optional<uint64_t>(slot - 1);
  }

 private:
  bool push_slot(uint64_t slot) {
    if (size_ >= kMaxStack) return false;
    if (size_ == slots_.size()) reserve(size_ + 1);
    slots_[size_++] = slot;
    return true;
  }
  void reserve(size_t count) {
    if (count > slots_.size()) slots_.resize(std::max(count, 2 * slots_.size() + 64));
  }

  std::vector<uint64_t> slots_;  // its size is the capacity
  size_t size_ = 0;
};

struct OpenMark {
  size_t stack_size = 0;
  uint64_t offset = 0;
  uint64_t memo_count = 0;
  uint64_t depth = 0;
};

class Scanner {
 public:
  Scanner(const ByteSource& source, uint64_t size, const ChunkScanOptions& options, ChunkPlan& plan)
      : window_(source, size), options_(options), plan_(plan) {}

  void run(const std::atomic<bool>& cancel) {
    uint32_t until_check = kCancelCheckEvery;
    while (step()) {
      if (--until_check == 0) {
        until_check = kCancelCheckEvery;
        if (cancel.load(std::memory_order_relaxed)) break;
      }
    }
    close_chunk();
    plan_.set_scanned_bytes(pos_);
  }

 private:
  // Runs one opcode; false ends the scan.
  bool step() {
    size_t available = 0;
    const uint8_t* p = window_.at(pos_, kLongestHeader, available);
    if (available == 0) return false;
    const uint64_t op_offset = pos_;
    const uint8_t op = p[0];
    auto argument = [&](size_t width) -> std::optional<uint64_t> {
      if (available < 1 + width) return std::nullopt;
      pos_ += 1 + width;
      return load_le(p + 1, width);
    };
    switch (op) {
      case PROTO:
        return argument(1).has_value();
      case FRAME:
        return argument(8).has_value();
      case STOP:
        return false;
      case MARK:
        if (marks_.size() >= kMaxMarks) return false;
        marks_.push_back({stack_.size(), op_offset, memo_count_, stack_.size() + marks_.size()});
        pos_ += 1;
        return true;
      case NONE:
      case NEWTRUE:
      case NEWFALSE:
      case EMPTY_LIST:
      case EMPTY_DICT:
      case EMPTY_SET:
      case EMPTY_TUPLE:
        pos_ += 1;
        return push_other();
      case BININT1:
        return argument(1) && push_other();
      case BININT2:
        return argument(2) && push_other();
      case BININT:
        return argument(4) && push_other();
      case BINFLOAT:
        return argument(8) && push_other();
      case LONG1:
      case SHORT_BINBYTES:
      case SHORT_BINSTRING:
        return payload(argument(1)) && push_other();
      case LONG4:
      case BINBYTES:
      case BINSTRING:
        return payload(argument(4)) && push_other();
      case BINBYTES8:
      case BYTEARRAY8:
        return payload(argument(8)) && push_other();
      case SHORT_BINUNICODE:
        return payload(argument(1)) && push_string(op_offset);
      case BINUNICODE:
        return payload(argument(4)) && push_string(op_offset);
      case BINUNICODE8:
        return payload(argument(8)) && push_string(op_offset);
      case INT:
      case LONG:
      case FLOAT:
      case STRING:
      case UNICODE:
        return skip_line() && push_other();
      case MEMOIZE:
        pos_ += 1;
        return memoize(memo_count_);
      case BINPUT: {
        const auto index = argument(1);
        return index && memoize(*index);
      }
      case LONG_BINPUT: {
        const auto index = argument(4);
        return index && memoize(*index);
      }
      case BINGET:
      case LONG_BINGET:
        return get_run(p, available);
      case LIST:
      case DICT:
      case TUPLE:
      case FROZENSET:
        pos_ += 1;
        return pop_mark() && push_other();
      case TUPLE1:
      case TUPLE2:
      case TUPLE3:
        pos_ += 1;
        return pop(static_cast<size_t>(op - TUPLE1 + 1)) && push_other();
      case APPEND:
        pos_ += 1;
        return pop(1) && has_target();
      case SETITEM:
        pos_ += 1;
        return pop(2) && has_target();
      case SETITEMS:
      case ADDITEMS:
        pos_ += 1;
        return pop_mark() && has_target();
      case APPENDS:
        pos_ += 1;
        return appends();
      default:
        return false;  // GET/PUT by text, POP, DUP and anything that is not plain data
    }
  }

  // A GET and the GETs right after it in the window (a frames list is a run of dozens, most of
  // a snapshot's opcodes): each pushes a value that is no string.
  bool get_run(const uint8_t* p, size_t available) {
    size_t i = 0;
    size_t count = 0;
    while (available - i >= 5) {
      uint64_t index;
      if (p[i] == BINGET) {
        index = p[i + 1];
        i += 2;
      } else if (p[i] == LONG_BINGET) {
        index = load_le(p + i + 1, 4);
        i += 5;
      } else {
        break;
      }
      if (index >= memo_count_) return false;
      ++count;
    }
    if (count == 0) {  // the window's last bytes
      const size_t width = p[0] == BINGET ? 1 : 4;
      if (available < 1 + width || load_le(p + 1, width) >= memo_count_) return false;
      i = 1 + width;
      count = 1;
    }
    if (!stack_.push_others(count)) return false;
    pos_ += i;
    return true;
  }

  bool payload(std::optional<uint64_t> length) {
    if (!length || *length > window_.size() - pos_) return false;
    pos_ += *length;
    return true;
  }

  bool skip_line() {
    const uint64_t start = pos_;
    size_t available = 0;
    const uint8_t* p = window_.at(start, 2, available);
    const void* newline = available > 1 ? std::memchr(p + 1, '\n', available - 1) : nullptr;
    if (newline == nullptr && start + available < window_.size()) {
      p = window_.refilled(start, available);
      newline = available > 1 ? std::memchr(p + 1, '\n', available - 1) : nullptr;
    }
    if (newline == nullptr) return false;
    pos_ = start + static_cast<uint64_t>(static_cast<const uint8_t*>(newline) - p) + 1;
    return true;
  }

  size_t floor() const { return marks_.empty() ? 0 : marks_.back().stack_size; }

  bool push_other() { return stack_.push_other(); }
  bool push_string(uint64_t op_offset) { return stack_.push_string(op_offset); }
  bool pop(size_t n) {
    if (stack_.size() - floor() < n) return false;
    stack_.truncate(stack_.size() - n);
    return true;
  }
  // APPEND, SETITEM and the batch opcodes add to the value below their items.
  bool has_target() const { return stack_.size() > floor(); }

  bool pop_mark() {
    if (marks_.empty()) return false;
    stack_.truncate(marks_.back().stack_size);
    marks_.pop_back();
    return true;
  }

  // Only dense memos are modelled (each new index the next one), as every pickler writes them.
  bool memoize(uint64_t index) {
    if (index != memo_count_ || stack_.size() <= floor()) return false;
    if (const auto offset = stack_.top_string()) plan_.add_string({index, *offset});
    ++memo_count_;
    return true;
  }

  bool appends() {
    if (marks_.empty()) return false;
    const OpenMark mark = marks_.back();
    if (!pop_mark() || !has_target()) return false;
    if (pos_ - mark.offset >= kMinBatchBytes) add_batch(mark);
    return true;
  }

  // A batch [mark.offset, pos_) into the list below its MARK: it extends the open chunk when it
  // follows it directly at the same depth, else it starts one.
  void add_batch(const OpenMark& mark) {
    if (open_ && (mark.offset != current_.end || mark.depth != current_.depth)) close_chunk();
    if (!open_) {
      current_ = {mark.offset, pos_, mark.memo_count, mark.depth};
      open_ = true;
    }
    current_.end = pos_;
    if (current_.end - current_.begin >= options_.target_bytes) {
      close_chunk();
      return;
    }
    size_t available = 0;
    const uint8_t* next = window_.at(pos_, 1, available);
    if (available == 0 || next[0] != MARK) close_chunk();  // the list is complete
  }

  void close_chunk() {
    if (open_ && current_.end - current_.begin >= options_.min_bytes) plan_.publish(current_);
    open_ = false;
  }

  Window window_;
  ChunkScanOptions options_;
  ChunkPlan& plan_;
  uint64_t pos_ = 0;
  uint64_t memo_count_ = 0;
  ScanStack stack_;
  std::vector<OpenMark> marks_;
  PickleChunk current_;
  bool open_ = false;
};

}  // namespace

void scan_chunks(const ByteSource& source, uint64_t size, const ChunkScanOptions& options, ChunkPlan& plan,
                 const std::atomic<bool>& cancel) {
  struct FinishAlways {
    ChunkPlan& plan;
    ~FinishAlways() { plan.finish(); }
  } finish{plan};
  Scanner(source, size, options, plan).run(cancel);
}

}  // namespace snapscope::pickle
