#include "core/pickle/unpickler.h"

#include <algorithm>
#include <bit>
#include <charconv>
#include <cmath>
#include <cstddef>
#include <cstring>

#include "core/pickle/batch_reader.h"
#include "core/pickle/little_endian.h"
#include "core/pickle/long_value.h"
#include "core/pickle/opcodes.h"

// The per-opcode path (dispatch, push, memo get, append) must inline into the run loop.
#define SNAPSCOPE_HOT [[gnu::always_inline]] inline

namespace snapscope::pickle {

namespace {

constexpr size_t kInitialBuffer = 1u << 20;
// A batch is read whole only when it ends inside the buffer: at a batch's MARK the buffer is
// topped up to this much (a trace list's batch of 1000 entries is ~100-200 KB) ...
constexpr size_t kBatchWindow = size_t{512} << 10;
// ... and grows to this, so that topping up moves at most a fifth of what is read.
constexpr size_t kBatchBuffer = size_t{4} << 20;
// A lending source's window (view_from_here): each move reports progress and lets the source
// release the pages behind it.
constexpr size_t kViewBytes = size_t{8} << 20;
// The batch reader reads an item's nesting (dict, list, dict) without checking the depth limit.
constexpr uint32_t kBatchNesting = 4;
constexpr uint32_t kNoSlot = UINT32_MAX;

// Writes `value` with one 16-byte store. A frames list's items are copied whole into the list
// right after (APPENDS); from the two 8-byte stores a plain assignment makes, each such copy
// waited for the stores to retire instead of being forwarded.
SNAPSCOPE_HOT void store_whole(Value* destination, const Value& value) {
  using TwoWords = uint64_t __attribute__((vector_size(16)));
  static_assert(offsetof(Value, kind) == 0 && offsetof(Value, aux) == 4 && offsetof(Value, u) == 8);
  const uint64_t head = uint64_t{static_cast<uint8_t>(value.kind)} | uint64_t{value.aux} << 32;
  const TwoWords whole = {head, value.u};
  std::memcpy(static_cast<void*>(destination), &whole, sizeof whole);
}

std::string_view as_chars(const uint8_t* p, size_t n) { return {reinterpret_cast<const char*>(p), n}; }

void append_utf8(std::string& out, uint32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

// Python 2 str payloads (STRING/BINSTRING) are bytes; read them as Latin-1 like
// Unpickler(encoding="latin1") would, so any byte value is accepted.
std::string latin1_to_utf8(std::string_view raw) {
  std::string out;
  out.reserve(raw.size());
  for (char c : raw) append_utf8(out, static_cast<uint8_t>(c));
  return out;
}

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

}  // namespace

PickleError::PickleError(const std::string& reason, uint64_t offset)
    : std::runtime_error(reason + " at byte " + std::to_string(offset)), offset_(offset) {}

PickleError PickleError::not_a_pickle(uint8_t first_byte) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string message = "not a pickle file (it starts with byte 0x";
  message += kHex[first_byte >> 4];
  message += kHex[first_byte & 15];
  if (first_byte >= 0x20 && first_byte < 0x7f) message += std::string(" '") + char(first_byte) + "'";
  message += ", which no pickle starts with)";
  return PickleError(WholeMessage{}, message);
}

bool is_valid_utf8(std::string_view text) {
  const auto* p = reinterpret_cast<const uint8_t*>(text.data());
  const uint8_t* end = p + text.size();
  while (p < end) {
    // ASCII fast path, 8 bytes at a time.
    while (end - p >= 8) {
      uint64_t chunk;
      std::memcpy(&chunk, p, 8);
      if (chunk & 0x8080808080808080ull) break;
      p += 8;
    }
    if (p >= end) break;
    uint8_t c = *p;
    if (c < 0x80) {
      ++p;
      continue;
    }
    size_t len;
    uint32_t cp;
    if ((c & 0xE0) == 0xC0) {
      len = 2, cp = c & 0x1F;
    } else if ((c & 0xF0) == 0xE0) {
      len = 3, cp = c & 0x0F;
    } else if ((c & 0xF8) == 0xF0) {
      len = 4, cp = c & 0x07;
    } else {
      return false;
    }
    if (static_cast<size_t>(end - p) < len) return false;
    for (size_t i = 1; i < len; ++i) {
      if ((p[i] & 0xC0) != 0x80) return false;
      cp = (cp << 6) | (p[i] & 0x3F);
    }
    static constexpr uint32_t kMinForLength[5] = {0, 0, 0x80, 0x800, 0x10000};
    if (cp < kMinForLength[len] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return false;
    p += len;
  }
  return true;
}

namespace {

// A small input needs no 1 MB buffer (the fuzzer opens thousands of tiny
// inputs a second): each opcode takes at least a byte, so the input's size bounds both.
size_t initial_size(const ByteSource& source, size_t cap) {
  const auto remaining = source.remaining();
  return remaining ? static_cast<size_t>(std::clamp<uint64_t>(*remaining + 1, 4096, cap)) : cap;
}

// From this input size the memo's pages are populated ahead of it on another thread: a
// multi-GB real snapshot memoises tens of millions of values, and the first write to each page
// was a tenth of the read. Smaller inputs (and every fuzzer input) start no thread.
constexpr uint64_t kPopulateMemoFromInputBytes = uint64_t{64} << 20;
constexpr size_t kMemoLeadBytes = size_t{4} << 20;
// memo_put tells the populating thread how far the memo got every this many entries.
constexpr size_t kMemoProgressEvery = size_t{1} << 16;

}  // namespace

UnpicklerLimits UnpicklerLimits::for_input(std::optional<uint64_t> bytes) {
  UnpicklerLimits limits;
  constexpr uint64_t kBytesPerMemoEntry = 16;
  constexpr uint64_t kMaxMemo = kNoSlot - 1;  // memo indices are 32-bit
  if (bytes) limits.max_memo = std::clamp<uint64_t>(*bytes / kBytesPerMemoEntry, kMinMemo, kMaxMemo);
  return limits;
}

Unpickler::Unpickler(ByteSource& source, StringTable& strings, ContainerReducer* reducer,
                     UnpicklerLimits limits)
    : source_(source),
      strings_(strings),
      reducer_(reducer),
      limits_(limits),
      lent_(source.lends_bytes()),
      buf_(lent_ ? 0 : initial_size(source, kInitialBuffer)),
      stack_(limits.max_stack),
      memo_(limits.max_memo) {
  read_batches(true);
  const auto remaining = source.remaining();
  if (remaining && *remaining >= kPopulateMemoFromInputBytes) {
    // Frames lists GET memo entries all over it: with 4 KiB pages most GETs also miss the TLB.
    advise_huge_pages(memo_.data(), memo_.capacity() * sizeof(MemoSlot));
    memo_pages_ = std::make_unique<PopulateAhead>(
        MemoryRange{memo_.data(), memo_.capacity() * sizeof(MemoSlot)}, kMemoLeadBytes);
  }
}

// A chunk parser's references back, for its batch reader: as a GET would read them.
class Unpickler::EarlierEntries final : public BatchReader::EarlierMemo {
 public:
  explicit EarlierEntries(Unpickler& unpickler) : unpickler_(unpickler) {}
  Value value(uint64_t index) override { return unpickler_.external_value(index); }

 private:
  Unpickler& unpickler_;
};

Unpickler::~Unpickler() = default;

void Unpickler::read_batches(bool on) {
  if (!on) {
    batches_.reset();
  } else if (!batches_ && reducer_ != nullptr) {
    batches_ = std::make_unique<BatchReader>(strings_, *reducer_);
  }
}

// ---------------------------------------------------------------- input

void Unpickler::fill(size_t n, const char* what) {
  if (lent_) return view_from_here(n, what);
  size_t have = end_ - pos_;
  auto remaining = source_.remaining();
  if (remaining && n - have > *remaining) fail(std::string("unexpected end of input ") + what);
  std::memmove(buf_.data(), buf_.data() + pos_, have);
  base_ += pos_;
  pos_ = 0;
  end_ = have;
  while (end_ < n) {
    // Grow only when full: the buffer never outgrows twice the data actually read.
    if (end_ == buf_.size()) buf_.resize(buf_.size() * 2);
    size_t got = source_.read(std::span(buf_.data() + end_, buf_.size() - end_));
    if (got == 0) fail(std::string("unexpected end of input ") + what);
    end_ += got;
  }
  data_ = buf_.data();
}

// fill() for a source that lends its bytes: the window moves to start here, in place.
void Unpickler::view_from_here(size_t n, const char* what) {
  const uint64_t here = base_ + pos_;
  const std::span<const uint8_t> window = source_.view(here, std::max(n, kViewBytes));
  if (window.size() < n) fail(std::string("unexpected end of input ") + what);
  data_ = window.data();
  base_ = here;
  pos_ = 0;
  end_ = window.size();
}

SNAPSCOPE_HOT const uint8_t* Unpickler::take(size_t n, const char* what) {
  if (end_ - pos_ < n) fill(n, what);
  const uint8_t* p = data_ + pos_;
  pos_ += n;
  return p;
}

std::string_view Unpickler::read_line(const char* what) {
  size_t scanned = 0;
  for (;;) {
    const uint8_t* start = data_ + pos_;
    const void* nl = std::memchr(start + scanned, '\n', end_ - pos_ - scanned);
    if (nl != nullptr) {
      size_t len = static_cast<size_t>(static_cast<const uint8_t*>(nl) - start);
      pos_ += len + 1;
      return as_chars(start, len);
    }
    scanned = end_ - pos_;
    fill(scanned + 1, what);
  }
}

SNAPSCOPE_HOT uint64_t Unpickler::read_length(size_t width, const char* what) {
  return load_le(take(width, what), width);
}

// ---------------------------------------------------------------- errors

void Unpickler::fail(const std::string& reason) const { throw PickleError(reason, op_offset_); }

void Unpickler::refuse(uint8_t op) const {
  std::string_view name = opcode_name(op);
  if (name.empty() && op_offset_ == 0) throw PickleError::not_a_pickle(op);
  if (name.empty()) {
    static constexpr char kHex[] = "0123456789abcdef";
    std::string code = "0x";
    code += kHex[op >> 4];
    code += kHex[op & 15];
    fail("unknown opcode " + code);
  }
  fail("refusing opcode " + std::string(name) + " (it could run code; only plain data is accepted)");
}

// ---------------------------------------------------------------- stack

SNAPSCOPE_HOT void Unpickler::push(Value value) {
  if (stack_.size() >= limits_.max_stack) fail("too many values on the stack");
  stack_.push_back(value);
}

SNAPSCOPE_HOT void Unpickler::check_underflow(size_t needed) const {
  size_t floor = marks_.empty() ? 0 : marks_.back();
  if (stack_.size() - floor < needed) {
    fail("stack underflow in " + std::string(opcode_name(op_)));
  }
}

SNAPSCOPE_HOT Value Unpickler::pop() {
  check_underflow(1);
  Value v = stack_.back();
  stack_.pop_back();
  return v;
}

SNAPSCOPE_HOT Value& Unpickler::top() {
  check_underflow(1);
  return stack_.back();
}

size_t Unpickler::pop_mark() {
  if (marks_.empty()) fail("no MARK for " + std::string(opcode_name(op_)));
  size_t k = marks_.back();
  marks_.pop_back();
  return k;
}

// ---------------------------------------------------------------- scalars

void Unpickler::push_string(std::string_view utf8) {
  if (!is_valid_utf8(utf8)) fail("invalid UTF-8 in " + std::string(opcode_name(op_)));
  push(Value::handle(Kind::String, strings_.intern(utf8)));
}

void Unpickler::push_bytes(std::string_view raw) {
  bytes_.emplace_back(raw);
  push(Value::handle(Kind::Bytes, static_cast<uint32_t>(bytes_.size() - 1)));
}

// Little-endian two's complement of n bytes (LONG1/LONG4).
void Unpickler::push_long(const uint8_t* le, uint64_t n) { push(long_value(le, n)); }

// INT / LONG text forms: decimal, optional sign; INT also spells booleans "00" / "01".
void Unpickler::push_decimal(std::string_view text, bool bool_forms) {
  if (bool_forms && (text == "00" || text == "01")) return push(Value::boolean(text == "01"));
  text = trim(text);
  std::string_view digits = text;
  if (!digits.empty() && (digits[0] == '+' || digits[0] == '-')) digits.remove_prefix(1);
  if (digits.empty() ||
      !std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; })) {
    fail("bad integer text in " + std::string(opcode_name(op_)));
  }
  bool negative = text[0] == '-';
  uint64_t magnitude = 0;
  auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), magnitude);
  if (ec == std::errc() && ptr == digits.data() + digits.size()) {
    if (!negative && magnitude >= (uint64_t{1} << 63)) return push(Value::uinteger(magnitude));
    if (!negative) return push(Value::integer(static_cast<int64_t>(magnitude)));
    if (magnitude <= (uint64_t{1} << 63)) return push(Value::integer(static_cast<int64_t>(0 - magnitude)));
  }
  double approx = 0;
  for (char c : digits) approx = approx * 10 + (c - '0');
  push(Value::floating(Kind::BigInt, negative ? -approx : approx));
}

void Unpickler::load_text_float() {
  std::string_view text = trim(read_line("in FLOAT"));
  double v = 0;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || ptr != text.data() + text.size()) fail("bad float text in FLOAT");
  push(Value::floating(Kind::Float, v));
}

// STRING: a quoted Python 2 repr, with backslash escapes (codecs.escape_decode).
void Unpickler::load_text_string() {
  std::string_view line = trim(read_line("in STRING"));
  if (line.size() < 2 || (line.front() != '\'' && line.front() != '"') || line.back() != line.front()) {
    fail("the STRING argument must be quoted");
  }
  std::string_view body = line.substr(1, line.size() - 2);
  std::string raw;
  raw.reserve(body.size());
  for (size_t i = 0; i < body.size(); ++i) {
    char c = body[i];
    if (c != '\\' || i + 1 == body.size()) {
      if (c == '\\') fail("trailing backslash in STRING");
      raw += c;
      continue;
    }
    char e = body[++i];
    switch (e) {
      case 'n':
        raw += '\n';
        break;
      case 't':
        raw += '\t';
        break;
      case 'r':
        raw += '\r';
        break;
      case 'a':
        raw += '\a';
        break;
      case 'b':
        raw += '\b';
        break;
      case 'f':
        raw += '\f';
        break;
      case 'v':
        raw += '\v';
        break;
      case '\n':
        break;
      case 'x': {
        int hi = i + 1 < body.size() ? hex_digit(body[i + 1]) : -1;
        int lo = i + 2 < body.size() ? hex_digit(body[i + 2]) : -1;
        if (hi < 0 || lo < 0) fail("bad \\x escape in STRING");
        raw += static_cast<char>(hi * 16 + lo);
        i += 2;
        break;
      }
      default:
        if (e >= '0' && e <= '7') {
          int v = e - '0';
          for (int k = 0; k < 2 && i + 1 < body.size() && body[i + 1] >= '0' && body[i + 1] <= '7'; ++k) {
            v = v * 8 + (body[++i] - '0');
          }
          raw += static_cast<char>(v & 0xFF);
        } else if (e == '\\' || e == '\'' || e == '"') {
          raw += e;
        } else {
          raw += '\\';  // unknown escapes stay as written, like Python
          raw += e;
        }
    }
  }
  push_string(latin1_to_utf8(raw));
}

// UNICODE: raw-unicode-escape; bytes are Latin-1 except \uXXXX and \UXXXXXXXX escapes
// (an escape only when preceded by an odd number of backslashes, as in CPython).
void Unpickler::load_raw_unicode() {
  std::string_view line = read_line("in UNICODE");
  std::string out;
  out.reserve(line.size());
  for (size_t i = 0; i < line.size();) {
    if (line[i] != '\\') {
      append_utf8(out, static_cast<uint8_t>(line[i++]));
      continue;
    }
    size_t run = 0;
    while (i < line.size() && line[i] == '\\') ++run, ++i;
    bool escape = (run & 1) == 1 && i < line.size() && (line[i] == 'u' || line[i] == 'U');
    out.append(escape ? run - 1 : run, '\\');
    if (!escape) continue;
    size_t digits = line[i] == 'u' ? 4 : 8;
    if (i + 1 + digits > line.size()) fail("truncated \\u escape in UNICODE");
    uint32_t cp = 0;
    for (size_t k = 0; k < digits; ++k) {
      int d = hex_digit(line[i + 1 + k]);
      if (d < 0) fail("bad \\u escape in UNICODE");
      cp = cp * 16 + static_cast<uint32_t>(d);
    }
    if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) fail("invalid code point in UNICODE");
    append_utf8(out, cp);
    i += 1 + digits;
  }
  push(Value::handle(Kind::String, strings_.intern(out)));
}

void Unpickler::load_binunicode(size_t width) {
  const char* what = width == 1 ? "in SHORT_BINUNICODE" : width == 4 ? "in BINUNICODE" : "in BINUNICODE8";
  uint64_t n = read_length(width, what);
  push_string(as_chars(take(static_cast<size_t>(n), what), static_cast<size_t>(n)));
}

void Unpickler::load_binstring(size_t width) {
  const char* what = width == 1 ? "in SHORT_BINSTRING" : "in BINSTRING";
  uint64_t n = read_length(width, what);
  if (width == 4 && (n & 0x80000000u) != 0) fail("negative length in BINSTRING");
  push_string(latin1_to_utf8(as_chars(take(static_cast<size_t>(n), what), static_cast<size_t>(n))));
}

void Unpickler::load_binbytes(size_t width) {
  const char* what = width == 1 ? "in SHORT_BINBYTES" : width == 4 ? "in BINBYTES" : "in BINBYTES8";
  uint64_t n = read_length(width, what);
  push_bytes(as_chars(take(static_cast<size_t>(n), what), static_cast<size_t>(n)));
}

// ---------------------------------------------------------------- memo

SNAPSCOPE_HOT Value Unpickler::memo_value(uint64_t index) {
  const uint64_t local = index - memo_base_;  // wraps for a chunk parser's references before its chunk
  if (local < memo_.size()) return memo_.get(local);
  if (index < memo_base_) return external_value(index);
  auto it = sparse_memo_.find(local);
  if (it == sparse_memo_.end()) fail("memo index " + std::to_string(index) + " is not defined");
  return it->second;
}

std::optional<Value> Unpickler::memo_at(uint64_t index) const {
  if (memo_base_ != 0) return std::nullopt;
  if (index < memo_.size()) return memo_.get(index);
  auto it = sparse_memo_.find(index);
  if (it == sparse_memo_.end()) return std::nullopt;
  return it->second;
}

// A chunk parser's reference to an entry memoised before its chunk: strings are read where they
// were written (so keys compare as ids), everything else waits for the splice.
bool Unpickler::maybe_string(uint64_t index) const { return may_be_string(string_bits_, index); }

Value Unpickler::external_value(uint64_t index) {
  if (!maybe_string(index)) return Value::handle(Kind::External, static_cast<uint32_t>(index));
  RecentExternal& recent = recent_externals_[index % recent_externals_.size()];
  if (recent.index == index) return recent.value;
  if (auto it = external_strings_.find(index); it != external_strings_.end()) {
    recent = {index, it->second};
    return it->second;
  }
  std::optional<std::string> text = external_ ? external_->string(index) : std::nullopt;
  if (!text) return Value::handle(Kind::External, static_cast<uint32_t>(index));
  if (!is_valid_utf8(*text)) fail("invalid UTF-8 in memo entry " + std::to_string(index));
  const Value value = Value::handle(Kind::String, strings_.intern(*text));
  external_strings_.emplace(index, value);
  recent = {index, value};
  return value;
}

// Inline: memo_put's path for a new entry (one per event dict and frames list).
SNAPSCOPE_HOT void Unpickler::memo_append(const Value& value) {
  if (memo_.size() >= limits_.max_memo) fail("too many memo entries");
  memo_.push_back(value);
  if (memo_.size() % kMemoProgressEvery == 0 && memo_pages_)
    memo_pages_->written(memo_.size() * sizeof(MemoSlot));
}

void Unpickler::memo_put(uint64_t absolute_index) {
  if (absolute_index >= kNoSlot) fail("memo index too large");
  if (absolute_index < memo_base_)
    fail("memo index " + std::to_string(absolute_index) + " set again in a chunk");
  const uint64_t index = absolute_index - memo_base_;
  // A reference, read field by field: the value was usually pushed by the opcode just before,
  // and a whole-value copy of it would wait for those narrower stores to retire.
  const Value& v = top();
  if (index < memo_.size()) {
    memo_.set(index, v);
  } else if (index == memo_.size()) {
    memo_append(v);
  } else {
    if (sparse_memo_.size() >= limits_.max_memo) fail("too many memo entries");
    sparse_memo_[index] = v;
  }
  if (v.kind != Kind::Container) return;
  Container& c = live(v);
  if (c.memo_slot == kNoSlot) {
    c.memo_slot = static_cast<uint32_t>(index);
  } else if (c.memo_slot != index) {
    c.has_more_memo_slots = true;
    extra_memo_slots_.emplace(v.id, index);
  }
}

SNAPSCOPE_HOT void Unpickler::memo_get(uint64_t index) { push_reference(memo_value(index)); }

// The GETs right after a GET, read straight from the buffer with the position and the stack
// top in registers: a frames list is a run of dozens of them, most of the opcodes of a real
// snapshot. The run stops, leaving the GET to step(), at any other opcode, a GET of a
// container (it needs bookkeeping), of a number, or of a memo entry past the dense memo, a full
// stack, and the buffer's last few bytes.
SNAPSCOPE_HOT void Unpickler::get_run() {
  constexpr size_t kLongest = 5;  // LONG_BINGET and its 4-byte index
  const uint8_t* const data = data_;
  const size_t end = end_;
  const size_t memo_size = memo_.size();
  const MemoSlot* const memo = memo_.data();
  Value* const stack = stack_.data();
  const size_t stack_limit = stack_.capacity();  // limits_.max_stack
  size_t pos = pos_;
  size_t top = stack_.size();
  while (end - pos >= kLongest && top < stack_limit) {
    const uint8_t op = data[pos];
    uint64_t index;
    size_t length;
    if (op == BINGET) {
      index = data[pos + 1];
      length = 2;
    } else if (op == LONG_BINGET) {
      index = load_le(data + pos + 1, 4);
      length = 5;
    } else {
      break;
    }
    const uint64_t local = index - memo_base_;  // wraps for a chunk parser's reference before its chunk
    if (local >= memo_size) {
      // A chunk parser's reference back to a frame or frames list: a value the splice resolves.
      if (index >= memo_base_ || maybe_string(index)) break;
      store_whole(stack + top++, Value::handle(Kind::External, static_cast<uint32_t>(index)));
      pos += length;
      continue;
    }
    const MemoSlot& slot = memo[local];
    if (slot.wide() || slot.tag == static_cast<uint8_t>(Kind::Container)) break;
    store_whole(stack + top++, slot.narrow_value());
    pos += length;
  }
  pos_ = pos;
  stack_.set_size(top);
}

// GET and DUP: a container may now sit on the stack twice; remember it so that reducing it
// later also rewrites the other stack slots (shared objects, e.g. one [] used as every
// block's 'frames' while the enclosing dict is still being filled).
SNAPSCOPE_HOT void Unpickler::push_reference(Value value) {
  if (value.kind == Kind::Container) live(value).pushed_again = true;
  push(value);
}

// ---------------------------------------------------------------- containers

Value Unpickler::new_container(ContainerKind kind) {
  uint32_t id;
  if (!free_containers_.empty()) {
    id = free_containers_.back();
    free_containers_.pop_back();
  } else {
    if (containers_.size() >= kNoSlot) fail("too many containers");
    id = static_cast<uint32_t>(containers_.size());
    containers_.emplace_back();
  }
  containers_[id].kind = kind;
  return Value::handle(Kind::Container, id, containers_[id].generation);
}

const Container& Unpickler::container(Value value) const {
  if (value.id >= containers_.size() || containers_[value.id].generation != value.aux) {
    throw ReduceError("reference to an object that was already consumed");
  }
  return containers_[value.id];
}

Container& Unpickler::live(Value value) {
  if (value.id >= containers_.size() || containers_[value.id].generation != value.aux) {
    fail("reference to an object that was already consumed (recursive structure?)");
  }
  return containers_[value.id];
}

void Unpickler::rewrite_memo(const Container& c, uint32_t id, Value replacement) {
  auto is_this_container = [&](const Value& v) {
    return v.kind == Kind::Container && v.id == id && v.aux == c.generation;
  };
  auto rewrite = [&](uint64_t slot) {
    if (slot < memo_.size()) {
      if (is_this_container(memo_.get(slot))) memo_.set(slot, replacement);
    } else if (auto it = sparse_memo_.find(slot); it != sparse_memo_.end()) {
      if (is_this_container(it->second)) it->second = replacement;
    }
  };
  if (c.memo_slot != kNoSlot) rewrite(c.memo_slot);
  if (c.has_more_memo_slots) {
    auto [first, last] = extra_memo_slots_.equal_range(id);
    for (auto it = first; it != last; ++it) rewrite(it->second);
    extra_memo_slots_.erase(id);
  }
}

// A container that becomes an item is complete: give the reducer a chance to shrink it.
Value Unpickler::finish_item(Value item) {
  if (item.kind != Kind::Container) return item;
  Container& c = live(item);
  if (c.reduced) return c.replacement;
  Value replacement = ContainerReducer::keep();
  if (c.kind == ContainerKind::List && c.items.empty()) {
    replacement = Value::handle(Kind::EmptyList, 0);
  } else if (reducer_ != nullptr) {
    try {
      replacement = reducer_->reduce(c.kind, c.items, *this);
    } catch (const ReduceError& e) {
      fail(e.what());
    }
  }
  if (ContainerReducer::kept(replacement)) return item;
  c.reduced = true;
  c.replacement = replacement;
  rewrite_memo(c, item.id, replacement);
  if (c.pushed_again) {
    for (Value& v : stack_) {
      if (v.kind == Kind::Container && v.id == item.id && v.aux == item.aux) v = replacement;
    }
  }
  pending_.push_back(item.id);
  return replacement;
}

void Unpickler::recycle_pending() {
  for (uint32_t id : pending_) {
    Container& c = containers_[id];
    c.items.clear();
    c.generation++;
    c.reduced = false;
    c.pushed_again = false;
    c.memo_slot = kNoSlot;
    c.has_more_memo_slots = false;
    c.depth = 1;
    free_containers_.push_back(id);
  }
  pending_.clear();
}

SNAPSCOPE_HOT void Unpickler::add_one(Container& target, uint32_t target_id, Value item) {
  if (item.kind == Kind::Container) {
    if (item.id == target_id) fail("a container cannot contain itself");
    raise_depth(target, live(item).depth);
    item = finish_item(item);
  }
  add_reduced(target, item);
}

// `target` now holds a container `item_depth` deep.
SNAPSCOPE_HOT void Unpickler::raise_depth(Container& target, uint32_t item_depth) {
  const uint32_t depth = item_depth + 1u;
  if (depth <= target.depth) return;
  if (depth > limits_.max_depth) fail("nesting deeper than " + std::to_string(limits_.max_depth));
  target.depth = static_cast<uint16_t>(depth);
}

// Adds an item that is no (longer a) container.
SNAPSCOPE_HOT void Unpickler::add_reduced(Container& target, Value item) {
  if (item.kind == Kind::Event && target.kind == ContainerKind::List) {
    // Consecutive trace events collapse into one run: a trace list costs O(1), not O(events).
    return append_event_run(target, Value::handle(Kind::EventRun, item.id, 1));
  }
  target.items.push_back(item);
}

// Adds the events of `run` to `list`, extending its last item when that run ends where this
// one starts.
SNAPSCOPE_HOT void Unpickler::append_event_run(Container& list, Value run) {
  if (!list.items.empty()) {
    Value& last = list.items.back();
    if (last.kind == Kind::EventRun && last.id + last.aux == run.id &&
        uint64_t{last.aux} + run.aux <= kNoSlot) {
      last.aux += run.aux;
      return;
    }
  }
  list.items.push_back(run);
}

void Unpickler::add_items(Value target, size_t first, ContainerKind expected, const char* op) {
  if (target.kind != Kind::Container) fail(std::string(op) + " on a value that is not a container");
  Container& t = live(target);
  if (t.kind != expected || t.reduced) fail(std::string(op) + " on the wrong kind of container");
  if (expected == ContainerKind::Dict && (stack_.size() - first) % 2 != 0) {
    fail(std::string(op) + " with an odd number of items");
  }
  if (expected == ContainerKind::List) list_slot_ = slot_in_parent_list(first - 1);
  const size_t plain_end = first + plain_prefix(first);  // e.g. a frames list's memoised frames
  t.items.insert(t.items.end(), stack_.begin() + first, stack_.begin() + plain_end);
  for (size_t i = plain_end; i < stack_.size(); ++i) add_one(t, target.id, stack_[i]);
  list_slot_.reset();
  stack_.truncate(first);
  recycle_pending();
}

// How many values from stack_[first] on need no work to become items: neither containers (to
// finish) nor trace events (to merge into runs). They are copied in one go.
size_t Unpickler::plain_prefix(size_t first) const {
  size_t i = first;
  while (i < stack_.size() && stack_[i].kind != Kind::Container && stack_[i].kind != Kind::Event) ++i;
  return i - first;
}

// The list at stack_[position] sits above the innermost open MARK, whose target (just below
// the MARK) is a list: it will be item `items so far + lists between the MARK and it` there.
// Inline: returned through memory, the optional was copied into list_slot_ with wide loads of
// narrow stores just made, once per APPENDS.
SNAPSCOPE_HOT std::optional<Unpickler::ListSlot> Unpickler::slot_in_parent_list(size_t position) const {
  if (marks_.empty()) return std::nullopt;
  const size_t mark = marks_.back();
  if (mark == 0 || mark > position) return std::nullopt;
  const Value parent = stack_[mark - 1];
  if (parent.kind != Kind::Container || parent.id >= containers_.size()) return std::nullopt;
  const Container& list = containers_[parent.id];
  if (list.generation != parent.aux || list.kind != ContainerKind::List) return std::nullopt;
  const Value key = mark >= 2 ? stack_[mark - 2] : Value::none();
  return ListSlot{key, list.items.size() + (position - mark)};
}

void Unpickler::build_from_mark(ContainerKind kind) {
  size_t first = pop_mark();
  Value c = new_container(kind);
  Container& t = containers_[c.id];
  if (kind == ContainerKind::Dict && (stack_.size() - first) % 2 != 0)
    fail("DICT with an odd number of items");
  for (size_t i = first; i < stack_.size(); ++i) add_one(t, c.id, stack_[i]);
  stack_.truncate(first);
  recycle_pending();
  push(c);
}

void Unpickler::build_tuple(size_t count) {
  check_underflow(count);
  size_t first = stack_.size() - count;
  Value c = new_container(ContainerKind::Tuple);
  Container& t = containers_[c.id];
  for (size_t i = first; i < stack_.size(); ++i) add_one(t, c.id, stack_[i]);
  stack_.truncate(first);
  recycle_pending();
  push(c);
}

// ---------------------------------------------------------------- dispatch

Value Unpickler::run() {
  try {
    while (!stopped_) {
      if (pos_ == end_) {
        op_offset_ = offset();
        fill(1, "before STOP");
      }
      op_offset_ = base_ + pos_;
      op_ = data_[pos_++];
      step(op_);
    }
  } catch (const SourceError& e) {
    fail(e.what());
  }
  return stack_.back();
}

Value Unpickler::run_chunk(const ChunkStart& start) {
  base_ = start.offset;
  memo_base_ = start.memo_base;
  external_ = start.external;
  string_bits_ = start.string_bits;
  recent_externals_.resize(256);
  const Value list = new_container(ContainerKind::List);
  push(list);
  try {
    for (;;) {
      if (pos_ == end_) {
        if (source_.remaining() == 0) break;
        op_offset_ = offset();
        fill(1, "in a chunk");
      }
      op_offset_ = base_ + pos_;
      op_ = data_[pos_++];
      step(op_);
      if (stopped_) fail("STOP inside a chunk");
      // Stop at the first batch of something other than trace events (a list of segments).
      if (op_ == APPENDS && stack_.size() == 1 && marks_.empty()) {
        const auto& items = containers_[list.id].items;
        if (items.empty() || items.back().kind != Kind::EventRun)
          fail("a chunk item that is not a trace entry");
      }
    }
  } catch (const SourceError& e) {
    fail(e.what());
  }
  if (stack_.size() != 1 || !marks_.empty()) fail("a chunk that leaves values on the stack");
  return list;
}

// ---------------------------------------------------------------- batches

// At a MARK (just read) above a list: reads the batch it starts whole when the batch reader
// takes it. Not beside chunk parsers: they read the batches, and a whole-file parse that outran
// the scan for them would read their chunks itself.
bool Unpickler::read_batch() {
  if (splicer_ != nullptr || stack_.empty() || marks_.size() + kBatchNesting >= limits_.max_depth)
    return false;
  const Value target = stack_.back();
  if (target.kind != Kind::Container || target.id >= containers_.size()) return false;
  const Container& list = containers_[target.id];
  if (list.generation != target.aux || list.kind != ContainerKind::List || list.reduced) return false;
  if (pos_ == end_ || data_[pos_] != EMPTY_DICT) return false;
  ensure_batch_window();
  BatchReader::Input input{std::span(data_ + pos_, end_ - pos_), &memo_, limits_.max_memo};
  if (memo_base_ != 0) {
    if (!earlier_entries_) earlier_entries_ = std::make_unique<EarlierEntries>(*this);
    input.memo_base = memo_base_;
    input.earlier = earlier_entries_.get();
    input.string_bits = string_bits_;
  }
  if (!batches_->read(input, *this)) return false;
  if (batches_->length() >= limits_.max_stack - stack_.size())
    return false;  // each value takes a byte or more
  commit_batch(target);
  return true;
}

// Tops the buffer up to kBatchWindow bytes ahead, where the input holds that many more.
void Unpickler::ensure_batch_window() {
  const size_t have = end_ - pos_;
  const std::optional<uint64_t> remaining = source_.remaining();
  if (have >= kBatchWindow || !remaining || *remaining == 0) return;
  // fill() moves what is left to the front (a lending source's window is large enough already)
  if (!lent_ && buf_.size() < kBatchBuffer) buf_.resize(kBatchBuffer);
  fill(have + static_cast<size_t>(std::min<uint64_t>(*remaining, kBatchWindow - have)), "in a list");
}

// What the batch's APPENDS does: each item is reduced and added to the list, in order, and
// the memo gets the entries the batch defines.
void Unpickler::commit_batch(Value target) {
  op_offset_ = offset() + batches_->length() - 1;  // errors name the APPENDS, as they would
  op_ = APPENDS;
  list_slot_ = slot_in_parent_list(stack_.size() - 1);
  const std::span<Value> memo = batches_->new_memo();
  for (const BatchReader::Item& item : batches_->items()) {
    Container& list = containers_[target.id];
    raise_depth(list, item.depth);
    Value replacement;
    try {
      replacement = reducer_->reduce(ContainerKind::Dict, batches_->fields(item), *this);
    } catch (const ReduceError& e) {
      fail(e.what());
    }
    if (ContainerReducer::kept(replacement))
      fail("a batch item its reducer kept");  // replaces_batch_item said not
    if (item.memo != BatchReader::kNone) memo[item.memo] = replacement;
    add_reduced(list, replacement);
  }
  list_slot_.reset();
  for (const Value& value : memo) memo_append(value);
  pos_ += batches_->length();
  batch_items_read_ += batches_->items().size();
}

// ---------------------------------------------------------------- splicing

void Unpickler::set_splicer(ChunkSplicer* splicer) {
  splicer_ = splicer;
  next_splice_ = splicer ? 0 : UINT64_MAX;
}

// At a MARK at or past next_splice_ (just read): splices the chunk that starts here, if any, and
// asks where the next one starts.
bool Unpickler::splice_at_mark() {
  const bool spliced = op_offset_ == next_splice_ && try_splice();
  next_splice_ = splicer_->next_start(offset());
  return spliced;
}

bool Unpickler::try_splice() {
  if (stack_.empty() || !sparse_memo_.empty() || marks_.size() >= limits_.max_depth) return false;
  const Value target = stack_.back();
  if (target.kind != Kind::Container || target.id >= containers_.size()) return false;
  if (containers_[target.id].generation != target.aux) return false;
  if (containers_[target.id].kind != ContainerKind::List || containers_[target.id].reduced) return false;
  const SpliceState state{memo_.size(), stack_.size() + marks_.size(),
                          slot_in_parent_list(stack_.size() - 1)};
  SplicedChunk chunk;
  try {
    if (!splicer_->splice(op_offset_, state, *this, chunk)) return false;
  } catch (const ReduceError& e) {
    fail(e.what());
  }
  Container& list = containers_[target.id];
  for (const Value& item : chunk.items) {
    if (item.kind == Kind::EventRun) {
      append_event_run(list, item);
    } else {
      list.items.push_back(item);
    }
  }
  for (const Value& value : chunk.memo) memo_append(value);
  skip_to(chunk.end);
  return true;
}

void Unpickler::skip_to(uint64_t stream_offset) {
  const uint64_t here = offset();
  if (stream_offset < here) fail("a chunk that ends before it starts");
  if (stream_offset - here <= end_ - pos_) {
    pos_ += static_cast<size_t>(stream_offset - here);
    return;
  }
  const uint64_t beyond = stream_offset - (base_ + end_);
  pos_ = end_ = 0;
  base_ = stream_offset;
  if (lent_) return;  // the next view starts there
  try {
    source_.skip(beyond);
  } catch (const SourceError& e) {
    fail(e.what());
  }
}

SNAPSCOPE_HOT void Unpickler::step(uint8_t op) {
  switch (op) {
    // --- framing and protocol
    case PROTO: {
      protocol_ = *take(1, "in PROTO");
      if (protocol_ > kHighestProtocol) fail("unsupported pickle protocol " + std::to_string(protocol_));
      return;
    }
    case FRAME:
      read_length(8, "in FRAME");
      return;  // we stream regardless of frames
    case STOP: {
      Value result = pop();
      stack_.push_back(result);
      stopped_ = true;
      return;
    }
    // --- stack manipulation
    case MARK:
      if (op_offset_ >= next_splice_ && splice_at_mark()) [[unlikely]]
        return;
      if (batches_ && read_batch()) return;
      if (marks_.size() >= limits_.max_depth)
        fail("nesting deeper than " + std::to_string(limits_.max_depth));
      marks_.push_back(stack_.size());
      return;
    case POP: {
      size_t floor = marks_.empty() ? 0 : marks_.back();
      if (stack_.size() > floor) {
        stack_.pop_back();
      } else {
        pop_mark();  // Python: POP with an empty frame discards the MARK
      }
      return;
    }
    case POP_MARK:
      stack_.truncate(pop_mark());
      return;
    case DUP:
      push_reference(top());
      return;
    // --- scalars
    case NONE:
      return push(Value::none());
    case NEWTRUE:
      return push(Value::boolean(true));
    case NEWFALSE:
      return push(Value::boolean(false));
    case BININT: {
      uint32_t raw = static_cast<uint32_t>(load_le(take(4, "in BININT"), 4));
      return push(Value::integer(static_cast<int32_t>(raw)));
    }
    case BININT1:
      return push(Value::integer(*take(1, "in BININT1")));
    case BININT2:
      return push(Value::integer(static_cast<int64_t>(load_le(take(2, "in BININT2"), 2))));
    case LONG1: {
      uint64_t n = *take(1, "in LONG1");
      return push_long(take(static_cast<size_t>(n), "in LONG1"), n);
    }
    case LONG4: {
      uint64_t n = read_length(4, "in LONG4");
      if (n & 0x80000000u) fail("negative length in LONG4");
      return push_long(take(static_cast<size_t>(n), "in LONG4"), n);
    }
    case INT:
      return push_decimal(read_line("in INT"), true);
    case LONG: {
      std::string_view text = read_line("in LONG");
      if (!text.empty() && text.back() == 'L') text.remove_suffix(1);
      return push_decimal(text, false);
    }
    case BINFLOAT: {
      uint64_t bits = __builtin_bswap64(load_le(take(8, "in BINFLOAT"), 8));  // big-endian on the wire
      return push(Value::floating(Kind::Float, std::bit_cast<double>(bits)));
    }
    case FLOAT:
      return load_text_float();
    // --- strings and bytes
    case SHORT_BINUNICODE:
      return load_binunicode(1);
    case BINUNICODE:
      return load_binunicode(4);
    case BINUNICODE8:
      return load_binunicode(8);
    case UNICODE:
      return load_raw_unicode();
    case STRING:
      return load_text_string();
    case BINSTRING:
      return load_binstring(4);
    case SHORT_BINSTRING:
      return load_binstring(1);
    case SHORT_BINBYTES:
      return load_binbytes(1);
    case BINBYTES:
      return load_binbytes(4);
    case BINBYTES8:
    case BYTEARRAY8:
      return load_binbytes(8);
    // --- memo
    case MEMOIZE:
      return memo_put(memo_base_ + memo_.size());
    case BINPUT:
      return memo_put(*take(1, "in BINPUT"));
    case LONG_BINPUT:
      return memo_put(read_length(4, "in LONG_BINPUT"));
    case PUT: {
      uint64_t index = 0;
      std::string_view text = trim(read_line("in PUT"));
      auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), index);
      if (ec != std::errc() || ptr != text.data() + text.size()) fail("bad memo index in PUT");
      return memo_put(index);
    }
    case BINGET:
      memo_get(*take(1, "in BINGET"));
      return get_run();
    case LONG_BINGET:
      memo_get(read_length(4, "in LONG_BINGET"));
      return get_run();
    case GET: {
      uint64_t index = 0;
      std::string_view text = trim(read_line("in GET"));
      auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), index);
      if (ec != std::errc() || ptr != text.data() + text.size()) fail("bad memo index in GET");
      return memo_get(index);
    }
    // --- containers
    case EMPTY_LIST:
      return push(new_container(ContainerKind::List));
    case EMPTY_DICT:
      return push(new_container(ContainerKind::Dict));
    case EMPTY_SET:
      return push(new_container(ContainerKind::Set));
    case EMPTY_TUPLE:
      return push(new_container(ContainerKind::Tuple));
    case LIST:
      return build_from_mark(ContainerKind::List);
    case DICT:
      return build_from_mark(ContainerKind::Dict);
    case TUPLE:
      return build_from_mark(ContainerKind::Tuple);
    case FROZENSET:
      return build_from_mark(ContainerKind::FrozenSet);
    case TUPLE1:
      return build_tuple(1);
    case TUPLE2:
      return build_tuple(2);
    case TUPLE3:
      return build_tuple(3);
    case APPEND: {
      check_underflow(2);
      return add_items(stack_[stack_.size() - 2], stack_.size() - 1, ContainerKind::List, "APPEND");
    }
    case SETITEM: {
      check_underflow(3);
      return add_items(stack_[stack_.size() - 3], stack_.size() - 2, ContainerKind::Dict, "SETITEM");
    }
    case APPENDS:
    case SETITEMS:
    case ADDITEMS: {
      size_t first = pop_mark();
      size_t floor = marks_.empty() ? 0 : marks_.back();
      if (first <= floor) fail("stack underflow in " + std::string(opcode_name(op)));  // no target
      ContainerKind kind = op == APPENDS    ? ContainerKind::List
                           : op == SETITEMS ? ContainerKind::Dict
                                            : ContainerKind::Set;
      return add_items(stack_[first - 1], first, kind, opcode_name(op).data());
    }
    default:
      refuse(op);
  }
}

}  // namespace snapscope::pickle
