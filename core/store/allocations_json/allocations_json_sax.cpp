#include "core/store/allocations_json/allocations_json_sax.h"

#include <algorithm>
#include <initializer_list>

#include <nlohmann/json.hpp>

#include "core/store/allocations_json/fast_json_sax.h"

namespace snapscope::allocations_json {
namespace {

using json = nlohmann::json;

// Tracks where in the document we are as a list of object keys ("[]" for array items) and
// routes values there. Number arrays resolve their destination once, at start_array, so the
// per-number callback is a push_back.
class RawFileHandler final : public nlohmann::json_sax<json> {
 public:
  RawFileHandler(RawFile& out, size_t text_bytes) : out_(out), text_bytes_(text_bytes) {}
  const std::string& error() const { return error_; }

  // Fast path only: number columns are handed over as text and parsed afterwards.
  bool defers_array() const { return column_ != nullptr; }
  // A key given twice is left to the full parser (which reads both into one column, so the
  // length check words it).
  bool defer_array(std::string_view body) {
    if (column_->deferred) return false;
    column_->text = body;
    column_->deferred = true;
    return true;
  }

  bool null() override { return integer(kNullValue); }
  bool boolean(bool value) override {
    if (RawReplay* replay = scalar_replay("synthetic_action")) replay->synthetic_action = value;
    return no_column_value();
  }
  bool number_integer(number_integer_t value) override { return integer(value); }
  bool number_unsigned(number_unsigned_t value) override { return integer(static_cast<int64_t>(value)); }
  bool number_float(number_float_t, const string_t&) override {
    return fail("unexpected floating-point number");
  }
  bool string(string_t& value) override {
    if (at({"format"})) out_.format = value;
    if (at({"source_file"})) out_.source_file = value;
    if (RawReplay* replay = scalar_replay("kind")) replay->kind = value;
    return no_column_value();
  }
  bool binary(binary_t&) override { return fail("unexpected binary value"); }

  bool start_object(std::size_t) override {
    if (column_) return fail("unexpected object in a number column");
    if (at({"devices", "[]"})) out_.devices.emplace_back();
    path_.emplace_back();
    return true;
  }
  bool key(string_t& name) override {
    path_.back() = name;
    return true;
  }
  bool end_object() override {
    path_.pop_back();
    return true;
  }
  bool start_array(std::size_t) override {
    if (column_) return fail("unexpected nested array in a number column");
    column_ = resolve_column();
    path_.emplace_back("[]");
    return true;
  }
  bool end_array() override {
    column_ = nullptr;
    path_.pop_back();
    return true;
  }
  bool parse_error(std::size_t position, const std::string&, const nlohmann::detail::exception& ex) override {
    if (error_.empty()) error_ = "invalid JSON at byte " + std::to_string(position) + ": " + ex.what();
    return false;
  }

 private:
  bool fail(std::string message) {
    error_ = std::move(message);
    return false;
  }

  bool at(std::initializer_list<std::string_view> expected) const {
    return std::equal(path_.begin(), path_.end(), expected.begin(), expected.end());
  }

  // The replay object currently open as devices[i].blocks / devices[i].segments.
  RawReplay* open_replay() const {
    if (path_.size() < 4 || path_[0] != "devices" || path_[1] != "[]" || out_.devices.empty()) return nullptr;
    RawDevice& device = out_.devices.back();
    if (path_[2] == "blocks") return &device.blocks;
    if (path_[2] == "segments") return &device.segments;
    return nullptr;
  }

  RawReplay* scalar_replay(std::string_view key) {
    RawReplay* replay = path_.size() == 4 ? open_replay() : nullptr;
    return replay && path_[3] == key ? replay : nullptr;
  }

  RawColumn* resolve_column() {
    RawReplay* replay = open_replay();
    if (!replay) return nullptr;
    if (path_.size() == 4 && path_[3] == "initial_stack") return &replay->columns["initial_stack"];
    if (path_.size() == 5 && (path_[3] == "elements" || path_[3] == "actions")) {
      RawColumn& column = replay->columns[path_[3] + "." + path_[4]];
      return &column;
    }
    return nullptr;
  }

  // The full parser's columns of millions of numbers: growing them by doubling copies and
  // faults in twice the memory. The declared count comes first in the file; a number takes at
  // least two bytes, so a bogus count cannot reserve more than the text could fill.
  void reserve(RawColumn& column) const {
    const RawReplay* replay = open_replay();
    if (!replay || path_.size() != 5) return;
    const std::optional<int64_t> count =
        path_[3] == "elements" ? replay->element_count : replay->action_count;
    if (!count || *count <= 0) return;
    column.values.reserve(std::min(static_cast<size_t>(*count), text_bytes_ / 2));
  }

  bool no_column_value() { return column_ ? fail("unexpected non-number in a number column") : true; }

  bool integer(int64_t value) {
    if (column_) {
      if (column_->values.empty()) reserve(*column_);
      column_->values.push_back(value);
      return true;
    }
    if (at({"version"})) out_.version = value;
    if (at({"source_bytes"})) out_.source_bytes = static_cast<uint64_t>(value);
    if (path_.size() == 3 && path_[0] == "devices" && path_[2] == "device" && !out_.devices.empty()) {
      out_.devices.back().device = value;
    }
    if (RawReplay* replay = scalar_replay("element_count")) replay->element_count = value;
    if (RawReplay* replay = scalar_replay("action_count")) replay->action_count = value;
    return true;
  }

  RawFile& out_;
  size_t text_bytes_;
  std::vector<std::string> path_;
  RawColumn* column_ = nullptr;
  std::string error_;
};

void mark_present_replays(RawFile& file) {
  for (RawDevice& device : file.devices) {
    device.blocks.present = !device.blocks.kind.empty();
    device.segments.present = !device.segments.kind.empty();
  }
}

}  // namespace

bool RawColumn::empty() const {
  if (!deferred) return values.empty();
  return text.find_first_not_of(" \n\r\t") == std::string_view::npos;
}

bool parse_raw_file_fast(std::string_view text, RawFile& out) {
  RawFileHandler handler(out, text.size());
  if (!fast_sax_parse(text, handler)) return false;
  mark_present_replays(out);
  return true;
}

std::optional<std::string> parse_raw_file_full(std::string_view text, RawFile& out) {
  RawFileHandler handler(out, text.size());
  const bool ok = json::sax_parse(text.begin(), text.end(), &handler);
  if (!ok) return handler.error().empty() ? std::string("invalid JSON") : handler.error();
  mark_present_replays(out);
  return std::nullopt;
}

}  // namespace snapscope::allocations_json
