// A small streaming writer of Python pickles (protocols 0..5) that emits the same opcodes
// CPython's C pickler (_pickle.c) emits for the same object graph, including 64 KiB frames
// for protocol >= 4. Used by the snapshot generator and by test fixtures.
//
// Values are written in order; containers are opened and closed explicitly:
//   PickleWriter w(out, 4, PickleWriter::Memo::Auto);
//   w.begin_dict(); w.str("key"); w.integer(1); w.end_dict(); w.finish();
//
// With Memo::Auto every str/bytes/dict/list/non-empty tuple is memoized the way CPython does
// it (so output is byte-identical to pickle.dumps of an object graph without shared objects);
// last_memo() then names the value's memo slot for a later get(). With Memo::Manual nothing is
// memoized unless memoize() is called.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

namespace snapscope {

class PickleWriter {
 public:
  enum class Memo { Manual, Auto };

  PickleWriter(std::string& sink, int protocol, Memo memo = Memo::Manual);
  PickleWriter(std::ostream& sink, int protocol, Memo memo = Memo::Manual);
  PickleWriter(const PickleWriter&) = delete;
  PickleWriter& operator=(const PickleWriter&) = delete;

  int protocol() const { return protocol_; }

  void begin_dict();  // then alternate key, value, key, value...
  void end_dict();
  void begin_list();
  void end_list();
  void begin_tuple();
  void end_tuple();

  void str(std::string_view utf8);
  void integer(int64_t value);
  void uint(uint64_t value);  // values >= 2^63 become a 9-byte LONG1, as in Python
  void floating(double value);
  void boolean(bool value);
  void none();
  void bytes(std::string_view data);  // protocol >= 3 only (older ones need a REDUCE)
  // A Python 2 `str` (STRING / BINSTRING / SHORT_BINSTRING), for fixtures of old dumps.
  void legacy_string(std::string_view data);

  // Memoizes the value just written (or the container just opened) and returns its index.
  uint32_t memoize();
  uint32_t last_memo() const { return last_memo_; }
  void get(uint32_t memo_index);  // writes a reference to a memoized value

  // Writes an opcode and its argument bytes verbatim, with no bookkeeping (odd fixtures).
  void raw_opcode(uint8_t opcode, std::string_view argument = {});

  // Writes STOP and flushes everything. All containers must be closed.
  void finish();
  uint64_t bytes_written() const { return flushed_ + buffer_.size(); }

 private:
  enum class Kind : uint8_t { Dict, List, Tuple };
  struct Open {
    Kind kind;
    uint64_t values = 0;       // values written directly inside
    uint64_t mark_at = 0;      // absolute offset of the first batch's MARK
    uint32_t batch_items = 0;  // items in the current MARK batch
  };

  void write_header();
  void before_value();
  void after_value();
  void begin_item(Open& open);
  void open_mark(Open& open);
  bool erase_mark(const Open& open);
  void end_batched(Kind kind, uint8_t one_op, uint8_t many_op);
  void write_text_int(char opcode, std::string_view digits);
  void write_long1(const uint8_t* little_endian, size_t count);
  void write_counted(uint8_t short_op, uint8_t op4, uint8_t op8, std::string_view data);
  void auto_memoize();

  void put(uint8_t byte) { buffer_.push_back(static_cast<char>(byte)); }
  void put(std::string_view data) { buffer_.append(data); }
  void put_le(uint64_t value, int width);
  void check_frame_boundary();
  void commit_frame();
  void emit(std::string_view data);

  std::string* string_sink_ = nullptr;
  std::ostream* stream_sink_ = nullptr;
  int protocol_;
  Memo memo_;
  std::string buffer_;  // the open frame (protocol >= 4) or unflushed output
  uint64_t flushed_ = 0;
  uint32_t memo_count_ = 0;
  uint32_t last_memo_ = 0;
  std::vector<Open> open_;
  bool finished_ = false;
};

}  // namespace snapscope
