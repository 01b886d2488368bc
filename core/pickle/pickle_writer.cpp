#include "core/pickle/pickle_writer.h"

#include <bit>
#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>
#include <ostream>
#include <stdexcept>

namespace snapscope {
namespace {

namespace op {
constexpr uint8_t kMark = '(';
constexpr uint8_t kStop = '.';
constexpr uint8_t kInt = 'I';
constexpr uint8_t kBinInt = 'J';
constexpr uint8_t kBinInt1 = 'K';
constexpr uint8_t kBinInt2 = 'M';
constexpr uint8_t kLong = 'L';
constexpr uint8_t kNone = 'N';
constexpr uint8_t kString = 'S';
constexpr uint8_t kBinString = 'T';
constexpr uint8_t kShortBinString = 'U';
constexpr uint8_t kUnicode = 'V';
constexpr uint8_t kBinUnicode = 'X';
constexpr uint8_t kAppend = 'a';
constexpr uint8_t kDict = 'd';
constexpr uint8_t kEmptyDict = '}';
constexpr uint8_t kAppends = 'e';
constexpr uint8_t kGet = 'g';
constexpr uint8_t kBinGet = 'h';
constexpr uint8_t kLongBinGet = 'j';
constexpr uint8_t kList = 'l';
constexpr uint8_t kEmptyList = ']';
constexpr uint8_t kPut = 'p';
constexpr uint8_t kBinPut = 'q';
constexpr uint8_t kLongBinPut = 'r';
constexpr uint8_t kSetItem = 's';
constexpr uint8_t kTuple = 't';
constexpr uint8_t kEmptyTuple = ')';
constexpr uint8_t kSetItems = 'u';
constexpr uint8_t kBinFloat = 'G';
constexpr uint8_t kFloat = 'F';
constexpr uint8_t kProto = 0x80;
constexpr uint8_t kTuple1 = 0x85;
constexpr uint8_t kNewTrue = 0x88;
constexpr uint8_t kNewFalse = 0x89;
constexpr uint8_t kLong1 = 0x8a;
constexpr uint8_t kBinBytes = 'B';
constexpr uint8_t kShortBinBytes = 'C';
constexpr uint8_t kShortBinUnicode = 0x8c;
constexpr uint8_t kBinUnicode8 = 0x8d;
constexpr uint8_t kBinBytes8 = 0x8e;
constexpr uint8_t kMemoize = 0x94;
constexpr uint8_t kFrame = 0x95;
}  // namespace op

constexpr uint32_t kBatchSize = 1000;           // CPython's BATCHSIZE for SETITEMS/APPENDS
constexpr size_t kFrameSizeTarget = 64 * 1024;  // CPython's FRAME_SIZE_TARGET
constexpr size_t kFrameSizeMin = 4;             // smaller frames are written unframed

std::string decimal(int64_t value) {
  char buf[24];
  auto result = std::to_chars(buf, buf + sizeof buf, value);
  return std::string(buf, result.ptr);
}

std::string decimal(uint64_t value) {
  char buf[24];
  auto result = std::to_chars(buf, buf + sizeof buf, value);
  return std::string(buf, result.ptr);
}

// Python's repr(float): shortest round-trip digits, exponent form outside [1e-4, 1e16).
std::string python_float_repr(double value) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value < 0 ? "-inf" : "inf";
  char buf[40];
  auto result = std::to_chars(buf, buf + sizeof buf, value, std::chars_format::scientific);
  std::string_view sci(buf, static_cast<size_t>(result.ptr - buf));
  const bool negative = sci.front() == '-';
  if (negative) sci.remove_prefix(1);
  const size_t e_pos = sci.find('e');
  std::string digits;
  for (char c : sci.substr(0, e_pos))
    if (c != '.') digits.push_back(c);
  int exponent = 0;
  std::string_view exp_text = sci.substr(e_pos + 1);
  if (exp_text.front() == '+') exp_text.remove_prefix(1);
  std::from_chars(exp_text.data(), exp_text.data() + exp_text.size(), exponent);

  std::string out = negative ? "-" : "";
  if (exponent < -4 || exponent >= 16) {
    out += digits[0];
    if (digits.size() > 1) out += "." + digits.substr(1);
    out += exponent < 0 ? "e-" : "e+";
    const int magnitude = std::abs(exponent);
    if (magnitude < 10) out += '0';
    out += std::to_string(magnitude);
  } else if (exponent >= 0) {
    const size_t int_digits = static_cast<size_t>(exponent) + 1;
    if (digits.size() < int_digits) digits.append(int_digits - digits.size(), '0');
    out += digits.substr(0, int_digits) + ".";
    out += digits.size() > int_digits ? digits.substr(int_digits) : "0";
  } else {
    out += "0." + std::string(static_cast<size_t>(-exponent - 1), '0') + digits;
  }
  return out;
}

// Decodes one UTF-8 sequence at text[i]; invalid bytes decode as themselves (latin-1).
uint32_t next_code_point(std::string_view text, size_t& i) {
  const auto byte = [&](size_t k) { return static_cast<uint8_t>(text[k]); };
  const uint8_t lead = byte(i);
  const size_t extra = lead >= 0xf0 ? 3 : lead >= 0xe0 ? 2 : lead >= 0xc0 ? 1 : 0;
  if (extra == 0 || i + extra >= text.size()) return byte(i++);
  uint32_t cp = lead & (0x3fu >> extra);
  for (size_t k = 1; k <= extra; ++k) {
    const uint8_t cont = byte(i + k);
    if ((cont & 0xc0) != 0x80) return byte(i++);
    cp = (cp << 6) | (cont & 0x3f);
  }
  i += extra + 1;
  return cp;
}

// The "raw-unicode-escape" flavour protocol 0 uses for UNICODE (see _pickle.c).
std::string raw_unicode_escape(std::string_view utf8) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(utf8.size());
  for (size_t i = 0; i < utf8.size();) {
    const uint32_t cp = next_code_point(utf8, i);
    const bool special = cp == '\\' || cp == 0 || cp == '\n' || cp == '\r' || cp == 0x1a;
    if (cp < 0x100 && !special) {
      out.push_back(static_cast<char>(cp));
      continue;
    }
    const int width = cp >= 0x10000 ? 8 : 4;
    out += width == 8 ? "\\U" : "\\u";
    for (int shift = (width - 1) * 4; shift >= 0; shift -= 4) out.push_back(kHex[(cp >> shift) & 0xf]);
  }
  return out;
}

// Python 2 repr() of a byte string, as protocol 0 STRING wants it.
std::string python2_string_repr(std::string_view data) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out = "'";
  for (char c : data) {
    const auto u = static_cast<uint8_t>(c);
    if (c == '\\' || c == '\'') {
      out += '\\';
      out += c;
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c == '\t') {
      out += "\\t";
    } else if (u < 0x20 || u >= 0x7f) {
      out += "\\x";
      out += kHex[u >> 4];
      out += kHex[u & 0xf];
    } else {
      out += c;
    }
  }
  return out + "'";
}

}  // namespace

PickleWriter::PickleWriter(std::string& sink, int protocol, Memo memo)
    : string_sink_(&sink), protocol_(protocol), memo_(memo) {
  write_header();
}

PickleWriter::PickleWriter(std::ostream& sink, int protocol, Memo memo)
    : stream_sink_(&sink), protocol_(protocol), memo_(memo) {
  write_header();
}

void PickleWriter::write_header() {
  if (protocol_ < 0 || protocol_ > 5) throw std::invalid_argument("pickle protocol must be 0..5");
  if (protocol_ >= 2) {
    const char header[2] = {static_cast<char>(op::kProto), static_cast<char>(protocol_)};
    emit(std::string_view(header, 2));  // PROTO is never inside a frame
  }
}

// --- containers -------------------------------------------------------------------------

void PickleWriter::begin_dict() {
  before_value();
  if (protocol_ == 0) {
    put(op::kMark);
    put(op::kDict);
  } else {
    put(op::kEmptyDict);
  }
  auto_memoize();
  open_.push_back(Open{Kind::Dict});
}

void PickleWriter::end_dict() {
  if (open_.empty() || open_.back().kind != Kind::Dict) throw std::logic_error("end_dict without begin_dict");
  if (open_.back().values % 2 != 0) throw std::logic_error("dict key without a value");
  end_batched(Kind::Dict, op::kSetItem, op::kSetItems);
}

void PickleWriter::begin_list() {
  before_value();
  if (protocol_ == 0) {
    put(op::kMark);
    put(op::kList);
  } else {
    put(op::kEmptyList);
  }
  auto_memoize();
  open_.push_back(Open{Kind::List});
}

void PickleWriter::end_list() {
  if (open_.empty() || open_.back().kind != Kind::List) throw std::logic_error("end_list without begin_list");
  end_batched(Kind::List, op::kAppend, op::kAppends);
}

void PickleWriter::begin_tuple() {
  before_value();
  open_.push_back(Open{Kind::Tuple});
  open_mark(open_.back());  // erased again at the end if TUPLE1..3 or EMPTY_TUPLE is used
}

void PickleWriter::end_tuple() {
  if (open_.empty() || open_.back().kind != Kind::Tuple)
    throw std::logic_error("end_tuple without begin_tuple");
  const Open open = open_.back();
  open_.pop_back();
  const uint64_t n = open.values;
  if (n >= 1 && n <= 3 && protocol_ >= 2 && erase_mark(open)) {
    put(static_cast<uint8_t>(op::kTuple1 + n - 1));
  } else if (n == 0 && protocol_ >= 1 && erase_mark(open)) {
    put(op::kEmptyTuple);
  } else {
    put(op::kTuple);
  }
  if (n > 0) auto_memoize();  // CPython never memoizes the empty tuple
  after_value();
}

// Protocol >= 1 batches items as MARK ... SETITEMS/APPENDS, 1000 at a time, except that a
// single item uses SETITEM/APPEND; protocol 0 already wrote SETITEM/APPEND after each item.
void PickleWriter::end_batched(Kind kind, uint8_t one_op, uint8_t many_op) {
  const Open open = open_.back();
  open_.pop_back();
  const uint64_t items = kind == Kind::Dict ? open.values / 2 : open.values;
  if (protocol_ >= 1 && items == 1 && erase_mark(open)) {
    put(one_op);
  } else if (protocol_ >= 1 && items >= 1) {
    put(many_op);
    // CPython's dict loop starts another (empty) batch whenever the last one was full.
    if (kind == Kind::Dict && open.batch_items == kBatchSize) {
      put(op::kMark);
      put(many_op);
    }
  }
  after_value();
}

void PickleWriter::open_mark(Open& open) {
  open.mark_at = bytes_written();
  put(op::kMark);
}

// Removes a container's first MARK if it is still in the unflushed buffer.
bool PickleWriter::erase_mark(const Open& open) {
  if (open.mark_at < flushed_) return false;  // already written out: keep the MARK form
  buffer_.erase(static_cast<size_t>(open.mark_at - flushed_), 1);
  return true;
}

// --- per-value bookkeeping ----------------------------------------------------------------

void PickleWriter::before_value() {
  if (finished_) throw std::logic_error("value written after finish()");
  if (!open_.empty()) {
    Open& top = open_.back();
    const bool starts_item = top.kind == Kind::List || (top.kind == Kind::Dict && top.values % 2 == 0);
    if (starts_item && protocol_ >= 1) begin_item(top);
  }
  check_frame_boundary();  // CPython checks at the start of every save()
}

void PickleWriter::begin_item(Open& open) {
  if (open.values == 0) {
    open_mark(open);
  } else if (open.batch_items == kBatchSize) {
    put(open.kind == Kind::Dict ? op::kSetItems : op::kAppends);
    put(op::kMark);
    open.batch_items = 0;
  }
  ++open.batch_items;
}

void PickleWriter::after_value() {
  if (open_.empty()) return;
  Open& top = open_.back();
  ++top.values;
  if (protocol_ != 0) return;
  if (top.kind == Kind::List) put(op::kAppend);
  if (top.kind == Kind::Dict && top.values % 2 == 0) put(op::kSetItem);
}

void PickleWriter::auto_memoize() {
  if (memo_ == Memo::Auto) memoize();
}

// --- scalars ------------------------------------------------------------------------------

void PickleWriter::integer(int64_t value) {
  before_value();
  const bool fits_int32 =
      value >= std::numeric_limits<int32_t>::min() && value <= std::numeric_limits<int32_t>::max();
  if (fits_int32 && protocol_ >= 1) {
    if (value >= 0 && value <= 0xff) {
      put(op::kBinInt1);
      put_le(static_cast<uint64_t>(value), 1);
    } else if (value >= 0 && value <= 0xffff) {
      put(op::kBinInt2);
      put_le(static_cast<uint64_t>(value), 2);
    } else {
      put(op::kBinInt);
      put_le(static_cast<uint64_t>(value), 4);
    }
  } else if (fits_int32) {
    write_text_int(op::kInt, decimal(value));
  } else if (protocol_ >= 2) {
    // Minimal two's complement: drop top bytes that only repeat the sign.
    uint8_t le[8];
    for (int i = 0; i < 8; ++i) le[i] = static_cast<uint8_t>(static_cast<uint64_t>(value) >> (8 * i));
    size_t count = 8;
    const uint8_t sign_fill = value < 0 ? 0xff : 0x00;
    while (count > 1 && le[count - 1] == sign_fill && ((le[count - 2] & 0x80) == (sign_fill & 0x80))) --count;
    write_long1(le, count);
  } else {
    write_text_int(op::kLong, decimal(value) + "L");
  }
  after_value();
}

void PickleWriter::uint(uint64_t value) {
  if (value <= static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
    integer(static_cast<int64_t>(value));
    return;
  }
  before_value();
  if (protocol_ >= 2) {
    uint8_t le[9] = {};
    for (int i = 0; i < 8; ++i) le[i] = static_cast<uint8_t>(value >> (8 * i));
    write_long1(le, 9);  // the trailing 0 byte keeps it positive
  } else {
    write_text_int(op::kLong, decimal(value) + "L");
  }
  after_value();
}

void PickleWriter::write_text_int(char opcode, std::string_view digits) {
  put(static_cast<uint8_t>(opcode));
  put(digits);
  put('\n');
}

void PickleWriter::write_long1(const uint8_t* little_endian, size_t count) {
  put(op::kLong1);
  put(static_cast<uint8_t>(count));
  put(std::string_view(reinterpret_cast<const char*>(little_endian), count));
}

void PickleWriter::floating(double value) {
  before_value();
  if (protocol_ >= 1) {
    put(op::kBinFloat);
    const auto bits = std::bit_cast<uint64_t>(value);
    for (int shift = 56; shift >= 0; shift -= 8) put(static_cast<uint8_t>(bits >> shift));  // big-endian
  } else {
    write_text_int(op::kFloat, python_float_repr(value));
  }
  after_value();
}

void PickleWriter::boolean(bool value) {
  before_value();
  if (protocol_ >= 2)
    put(value ? op::kNewTrue : op::kNewFalse);
  else
    write_text_int(op::kInt, value ? "01" : "00");
  after_value();
}

void PickleWriter::none() {
  before_value();
  put(op::kNone);
  after_value();
}

// --- strings ------------------------------------------------------------------------------

void PickleWriter::str(std::string_view utf8) {
  before_value();
  if (protocol_ == 0) {
    put(op::kUnicode);
    put(raw_unicode_escape(utf8));
    put('\n');
  } else {
    write_counted(protocol_ >= 4 ? op::kShortBinUnicode : 0, op::kBinUnicode, op::kBinUnicode8, utf8);
  }
  auto_memoize();
  after_value();
}

void PickleWriter::bytes(std::string_view data) {
  if (protocol_ < 3) throw std::invalid_argument("bytes need pickle protocol 3 or later");
  before_value();
  write_counted(op::kShortBinBytes, op::kBinBytes, op::kBinBytes8, data);
  auto_memoize();
  after_value();
}

void PickleWriter::legacy_string(std::string_view data) {
  before_value();
  if (protocol_ == 0) {
    put(op::kString);
    put(python2_string_repr(data));
    put('\n');
  } else {
    write_counted(op::kShortBinString, op::kBinString, 0, data);
  }
  auto_memoize();
  after_value();
}

// Length-prefixed data: 1-byte length when short_op is given and it fits, else 4 or 8 bytes.
// Like CPython, payloads of 64 KiB or more bypass framing entirely.
void PickleWriter::write_counted(uint8_t short_op, uint8_t op4, uint8_t op8, std::string_view data) {
  std::string header;
  header.reserve(9);
  const auto append_le = [&header](uint64_t v, int width) {
    for (int i = 0; i < width; ++i) header.push_back(static_cast<char>(v >> (8 * i)));
  };
  if (short_op != 0 && data.size() < 256) {
    header.push_back(static_cast<char>(short_op));
    append_le(data.size(), 1);
  } else if (data.size() > 0xffffffffu) {
    if (op8 == 0 || protocol_ < 4) throw std::invalid_argument("value too large for this pickle protocol");
    header.push_back(static_cast<char>(op8));
    append_le(data.size(), 8);
  } else {
    header.push_back(static_cast<char>(op4));
    append_le(data.size(), 4);
  }
  if (protocol_ >= 4 && data.size() >= kFrameSizeTarget) {
    commit_frame();
    emit(header);
    emit(data);
    return;
  }
  put(header);
  put(data);
}

// --- memo ---------------------------------------------------------------------------------

uint32_t PickleWriter::memoize() {
  const uint32_t index = memo_count_++;
  if (protocol_ >= 4) {
    put(op::kMemoize);
  } else if (protocol_ >= 1) {
    put(index < 256 ? op::kBinPut : op::kLongBinPut);
    put_le(index, index < 256 ? 1 : 4);
  } else {
    write_text_int(op::kPut, decimal(static_cast<uint64_t>(index)));
  }
  last_memo_ = index;
  return index;
}

void PickleWriter::get(uint32_t memo_index) {
  if (memo_index >= memo_count_) throw std::invalid_argument("get() of a memo index never memoized");
  before_value();
  if (protocol_ >= 1) {
    put(memo_index < 256 ? op::kBinGet : op::kLongBinGet);
    put_le(memo_index, memo_index < 256 ? 1 : 4);
  } else {
    write_text_int(op::kGet, decimal(static_cast<uint64_t>(memo_index)));
  }
  after_value();
}

void PickleWriter::raw_opcode(uint8_t opcode, std::string_view argument) {
  put(opcode);
  put(argument);
}

// --- output -------------------------------------------------------------------------------

void PickleWriter::finish() {
  if (finished_) return;
  if (!open_.empty()) throw std::logic_error("finish() with an unclosed container");
  put(op::kStop);
  commit_frame();
  finished_ = true;
}

void PickleWriter::put_le(uint64_t value, int width) {
  for (int i = 0; i < width; ++i) put(static_cast<uint8_t>(value >> (8 * i)));
}

void PickleWriter::check_frame_boundary() {
  if (buffer_.size() >= kFrameSizeTarget) commit_frame();
}

// Writes the buffered bytes, as one FRAME for protocol >= 4.
void PickleWriter::commit_frame() {
  if (buffer_.empty()) return;
  if (protocol_ >= 4 && buffer_.size() >= kFrameSizeMin) {
    char header[9];
    header[0] = static_cast<char>(op::kFrame);
    for (int i = 0; i < 8; ++i)
      header[1 + i] = static_cast<char>(static_cast<uint64_t>(buffer_.size()) >> (8 * i));
    emit(std::string_view(header, 9));
  }
  std::string frame;
  frame.swap(buffer_);
  emit(frame);
  frame.clear();
  buffer_.swap(frame);  // keep the capacity for the next frame
}

void PickleWriter::emit(std::string_view data) {
  if (string_sink_ != nullptr)
    string_sink_->append(data);
  else
    stream_sink_->write(data.data(), static_cast<std::streamsize>(data.size()));
  flushed_ += data.size();
}

}  // namespace snapscope
