// A fast path for reading allocations.json: a strict JSON tokenizer that drives the same SAX
// handler interface as nlohmann::json::sax_parse, with a tight loop for integers (the file is
// almost only integer arrays; nlohmann's lexer spends most of a multi-second load copying
// digits into a token buffer). It gives up (returns false) on anything it does not handle
// itself: floating-point numbers, integers beyond 64 bits, escaped strings, and any invalid
// input. The caller then reruns the full parser, which also words the error.
//
// A handler may take an array's text instead of its values: when it has `defers_array()` and
// `bool defer_array(std::string_view body)` and the first returns true for the array just
// started, the tokenizer skips to the first ']' and hands over what lies between (declining
// when the second returns false). The skip does not look inside: the handler must decline
// later (when parsing the body) unless the body is a flat list of numbers.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <string_view>

#include "core/store/allocations_json/json_integer.h"

namespace snapscope {

template <class Handler>
class FastJsonSax {
 public:
  FastJsonSax(std::string_view text, Handler& handler)
      : at_(text.data()), end_(text.data() + text.size()), handler_(handler) {}

  // True when the whole text was one valid JSON value and the handler accepted every event.
  bool run() {
    if (!value(0)) return false;
    skip_space();
    return at_ == end_;
  }

 private:
  static constexpr int kMaxDepth = 256;
  static constexpr std::size_t kUnknownSize = static_cast<std::size_t>(-1);

  void skip_space() {
    while (at_ != end_ && (*at_ == ' ' || *at_ == '\n' || *at_ == '\r' || *at_ == '\t')) ++at_;
  }

  bool value(int depth) {
    skip_space();
    if (at_ == end_) return false;
    switch (*at_) {
      case '{':
        return object(depth + 1);
      case '[':
        return array(depth + 1);
      case '"':
        return string_token(text_) && handler_.string(text_);
      case 't':
        return literal("true") && handler_.boolean(true);
      case 'f':
        return literal("false") && handler_.boolean(false);
      case 'n':
        return literal("null") && handler_.null();
      default:
        return number();
    }
  }

  bool literal(std::string_view word) {
    if (static_cast<std::size_t>(end_ - at_) < word.size() || std::string_view(at_, word.size()) != word)
      return false;
    at_ += word.size();
    return true;
  }

  // Unescaped strings only; control characters are invalid JSON.
  bool string_token(std::string& out) {
    const char* start = ++at_;
    while (at_ != end_ && *at_ != '"') {
      if (*at_ == '\\' || static_cast<unsigned char>(*at_) < 0x20) return false;
      ++at_;
    }
    if (at_ == end_) return false;
    out.assign(start, at_);
    ++at_;
    return true;
  }

  bool number() {
    const std::optional<JsonInteger> number = scan_json_integer(at_, end_);
    if (!number) return false;
    return number->is_unsigned ? handler_.number_unsigned(static_cast<uint64_t>(number->value))
                               : handler_.number_integer(number->value);
  }

  bool array(int depth) {
    if (depth > kMaxDepth) return false;
    ++at_;
    if (!handler_.start_array(kUnknownSize)) return false;
    if constexpr (requires(std::string_view body) { handler_.defer_array(body); }) {
      if (handler_.defers_array()) {
        const char* close = find_close();
        if (!close) return false;
        if (!handler_.defer_array(std::string_view(at_, static_cast<std::size_t>(close - at_)))) return false;
        at_ = close + 1;
        return handler_.end_array();
      }
    }
    skip_space();
    if (at_ != end_ && *at_ == ']') {
      ++at_;
      return handler_.end_array();
    }
    while (true) {
      if (!value(depth)) return false;
      skip_space();
      if (at_ == end_) return false;
      const char next = *at_++;
      if (next == ']') return handler_.end_array();
      if (next != ',') return false;
    }
  }

  const char* find_close() const {
    return static_cast<const char*>(std::memchr(at_, ']', static_cast<std::size_t>(end_ - at_)));
  }

  bool object(int depth) {
    if (depth > kMaxDepth) return false;
    ++at_;
    if (!handler_.start_object(kUnknownSize)) return false;
    skip_space();
    if (at_ != end_ && *at_ == '}') {
      ++at_;
      return handler_.end_object();
    }
    while (true) {
      skip_space();
      if (at_ == end_ || *at_ != '"' || !string_token(key_) || !handler_.key(key_)) return false;
      skip_space();
      if (at_ == end_ || *at_++ != ':') return false;
      if (!value(depth)) return false;
      skip_space();
      if (at_ == end_) return false;
      const char next = *at_++;
      if (next == '}') return handler_.end_object();
      if (next != ',') return false;
    }
  }

  const char* at_;
  const char* end_;
  Handler& handler_;
  std::string text_, key_;
};

template <class Handler>
bool fast_sax_parse(std::string_view text, Handler& handler) {
  return FastJsonSax<Handler>(text, handler).run();
}

}  // namespace snapscope
