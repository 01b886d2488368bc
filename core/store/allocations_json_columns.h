// The column layout of allocations.json, shared by its writer and reader so the two cannot
// drift apart. Every column is a JSON array of integers (see docs/FORMAT.md).
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

#include "core/timeline/replay_input.h"

namespace snapscope::allocations_json {

inline constexpr std::string_view kFormatName = "snapscope-allocations";

// One per-element column: how to read it from an element and how to store it back.
// `set` returns false when the value is out of range for the field.
struct ElementColumn {
  std::string_view name;
  int64_t (*get)(const ReplayElement&);
  bool (*set)(ReplayElement&, int64_t);
};
extern const std::array<ElementColumn, 10> kElementColumns;

// Action columns. Monotone series are delta-encoded: value[i] = value[i-1] + delta[i].
inline constexpr std::string_view kActionElem = "elem";
inline constexpr std::string_view kActionEventDelta = "event_delta";
inline constexpr std::string_view kActionTimeDelta = "time_us_delta";  // null where kNoTime

std::string_view kind_name(TimelineKind kind);

}  // namespace snapscope::allocations_json
