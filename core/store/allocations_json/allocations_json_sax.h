// Internal to the allocations.json reader: a SAX pass that collects the file's scalars and
// integer columns without building a JSON document. The fast pass keeps each column as text, to
// be parsed straight into the replay inputs later (on all cores); the full parser, used when the
// fast one declines, holds the values. Assembly and validation happen afterwards.
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/store/allocations_json/json_int_list.h"

namespace snapscope::allocations_json {

// Unsigned values keep their bit pattern; JSON null is read as kNullValue.
inline constexpr int64_t kNullValue = INT64_MIN;

// One integer column: the inside of its JSON array (fast pass), or its values (full parser).
struct RawColumn {
  std::string_view text;
  std::vector<int64_t> values;
  bool deferred = false;  // `text` holds it, else `values`

  IntCursor cursor() const { return deferred ? IntCursor(text, kNullValue) : IntCursor(values); }
  bool empty() const;  // []
};

// Columns by name ("elements.addr", "initial_stack", "actions.elem_delta", ...).
struct RawReplay {
  bool present = false;
  std::string kind;
  std::optional<bool> synthetic_action;
  std::optional<int64_t> element_count, action_count;
  std::map<std::string, RawColumn, std::less<>> columns;
};

struct RawDevice {
  std::optional<int64_t> device;
  RawReplay blocks, segments;
};

struct RawFile {
  std::string format;
  std::optional<int64_t> version;
  std::string source_file;
  uint64_t source_bytes = 0;
  std::deque<RawDevice> devices;  // a deque: columns stay put while devices are added
};

// The fast pass: false when it declines (anything but the strict JSON it handles); `out` is
// then incomplete. Columns are left as text. `text` must outlive `out`.
bool parse_raw_file_fast(std::string_view text, RawFile& out);
// The full parser: an error message, or nullopt on success. Columns hold their values.
// Both skip keys they do not know, so later minor additions stay readable.
std::optional<std::string> parse_raw_file_full(std::string_view text, RawFile& out);

}  // namespace snapscope::allocations_json
