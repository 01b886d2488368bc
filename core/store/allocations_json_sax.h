// Internal to the allocations.json reader: a SAX pass that collects the file's scalars and
// integer columns without building a JSON document. Assembly and validation happen afterwards.
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace snapscope::allocations_json {

// Integer columns by name ("elements.addr", "initial_stack", "actions.elem", ...). Unsigned
// values keep their bit pattern; JSON null is stored as kNullValue.
inline constexpr int64_t kNullValue = INT64_MIN;
struct RawReplay {
  bool present = false;
  std::string kind;
  std::optional<bool> synthetic_action;
  std::optional<int64_t> element_count, action_count;
  std::map<std::string, std::vector<int64_t>, std::less<>> columns;
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

// Parses JSON text. Returns an error message, or nullopt on success. Keys it does not know
// are skipped, so later minor additions stay readable.
std::optional<std::string> parse_raw_file(std::string_view text, RawFile& out);

}  // namespace snapscope::allocations_json
