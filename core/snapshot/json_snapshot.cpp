#include "core/snapshot/json_snapshot.h"

#include <array>
#include <cctype>
#include <istream>
#include <limits>
#include <span>
#include <streambuf>
#include <string>

#include <nlohmann/json.hpp>

#include "core/pickle/pickle_writer.h"

namespace snapscope {

namespace {

// nlohmann's SAX events written straight out as pickle opcodes: no JSON tree is built.
class PickleSax final : public nlohmann::json_sax<nlohmann::json> {
 public:
  explicit PickleSax(std::string& out) : writer_(out, 4, PickleWriter::Memo::Auto) {}
  void finish() { writer_.finish(); }

  bool null() override { return writer_.none(), true; }
  bool boolean(bool value) override { return writer_.boolean(value), true; }
  bool number_integer(number_integer_t value) override { return writer_.integer(value), true; }
  bool number_unsigned(number_unsigned_t value) override {
    if (value <= uint64_t(std::numeric_limits<int64_t>::max())) {
      writer_.integer(int64_t(value));
    } else {
      writer_.uint(value);  // CUDA addresses above 2^63
    }
    return true;
  }
  bool number_float(number_float_t value, const string_t&) override { return writer_.floating(value), true; }
  bool string(string_t& value) override { return writer_.str(value), true; }
  bool binary(binary_t&) override { return false; }  // JSON text has no binary values
  bool start_object(std::size_t) override { return writer_.begin_dict(), true; }
  bool key(string_t& value) override { return writer_.str(value), true; }
  bool end_object() override { return writer_.end_dict(), true; }
  bool start_array(std::size_t) override { return writer_.begin_list(), true; }
  bool end_array() override { return writer_.end_list(), true; }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception& error) override {
    const std::string message = error.what();  // "[json.exception.parse_error.101] parse error at line ..."
    const size_t bracket = message.find("] ");
    throw SourceError("not valid JSON: " +
                      (bracket == std::string::npos ? message : message.substr(bracket + 2)));
  }

 private:
  PickleWriter writer_;
};

// The source read through a fixed buffer, so the JSON text is parsed as it is decompressed and
// never held whole. nlohmann's lexer keeps the blanks before a token in its token text, so a run
// of blanks outside strings is passed on up to kMaxBlankRun bytes and the rest dropped: a small
// gzip file of gigabytes of whitespace costs time, not memory (only error columns after such a
// run shift).
class SourceBuffer final : public std::streambuf {
 public:
  explicit SourceBuffer(ByteSource& source) : source_(source) {}

 protected:
  int_type underflow() override {
    while (gptr() == egptr()) {
      const size_t got = source_.read(std::span(reinterpret_cast<uint8_t*>(raw_.data()), raw_.size()));
      if (got == 0) return traits_type::eof();
      total_ += got;
      if (total_ > kMaxJsonSnapshotTextBytes) {
        throw SourceError("JSON text longer than " + std::to_string(kMaxJsonSnapshotTextBytes >> 30) +
                          " GiB (the limit for a JSON snapshot, docs/FORMAT.md)");
      }
      setg(buffer_.data(), buffer_.data(), buffer_.data() + filter(got));
    }
    return traits_type::to_int_type(*gptr());
  }

 private:
  static constexpr size_t kMaxBlankRun = size_t{64} << 10;

  // Copies raw_[0, got) into buffer_ less the blanks past kMaxBlankRun; returns the bytes kept.
  size_t filter(size_t got) {
    size_t kept = 0;
    for (size_t i = 0; i < got; ++i) {
      const char c = raw_[i];
      if (in_string_) {
        in_string_ = escaped_ || c != '"';
        escaped_ = !escaped_ && c == '\\';
      } else if (c == ' ' || c == '\n' || c == '\r' || c == '\t') {
        if (++blank_run_ > kMaxBlankRun) continue;
      } else {
        blank_run_ = 0;
        in_string_ = c == '"';
      }
      buffer_[kept++] = c;
    }
    return kept;
  }

  ByteSource& source_;
  std::array<char, 1 << 16> raw_{};
  std::array<char, 1 << 16> buffer_{};
  uint64_t total_ = 0;
  size_t blank_run_ = 0;
  bool in_string_ = false;
  bool escaped_ = false;
};

}  // namespace

bool looks_like_json_snapshot(const std::string& path) {
  try {
    auto source = open_file_source(path);
    // Sources may return short reads (the gzip probe hands back its first two bytes alone).
    std::array<uint8_t, 256> head;
    constexpr std::array<uint8_t, 3> kBom = {0xef, 0xbb, 0xbf};  // a UTF-8 byte order mark
    size_t offset = 0;
    for (size_t n; (n = source->read(head)) > 0;) {
      for (size_t i = 0; i < n; ++i, ++offset) {
        if (offset < kBom.size() && head[i] == kBom[offset]) continue;
        if (!std::isspace(head[i])) return head[i] == '{';
      }
    }
  } catch (const SourceError&) {
  }
  return false;  // unreadable: the pickle reader reports why
}

std::string json_snapshot_to_pickle(ByteSource& source) {
  SourceBuffer buffer(source);
  std::istream text(&buffer);
  std::string pickle;
  PickleSax sax(pickle);
  if (!nlohmann::json::sax_parse(text, &sax)) throw SourceError("not valid JSON");
  sax.finish();
  return pickle;
}

}  // namespace snapscope
