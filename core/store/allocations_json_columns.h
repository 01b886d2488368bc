// The column layout of allocations.json, shared by its writer and reader so the two cannot
// drift apart. Every column is a JSON array of integers (see docs/FORMAT.md).
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

#include "core/timeline/replay_input.h"

namespace snapscope::allocations_json {

inline constexpr std::string_view kFormatName = "snapscope-allocations";

// How a column's values are written (docs/FORMAT.md, version 3). Sparse columns hold only the
// elements whose value is not the default, as flattened (index, value) pairs; source_event is
// [] when it is the usual one.
enum class Coding : uint8_t {
  Plain,
  Delta,    // value[i] = value[i-1] + delta[i] (mod 2^64), value[-1] = 0
  Sparse,   // [index, value, index, value, ...] for the values other than `fallback`, indices ascending
  Derived,  // [] = derived_source_event()
};

// One per-element column: how to read it from an element and how to store it back.
// `set` returns false when the value is out of range for the field.
struct ElementColumn {
  std::string_view name;
  int64_t (*get)(const ReplayElement&);
  bool (*set)(ReplayElement&, int64_t);
  Coding coding = Coding::Plain;
  int64_t fallback = 0;  // Sparse only
};
extern const std::array<ElementColumn, 10> kElementColumns;

// Action columns. Monotone series are delta-encoded: value[i] = value[i-1] + delta[i].
inline constexpr std::string_view kActionElem = "elem_delta";
inline constexpr std::string_view kActionEventDelta = "event_delta";
inline constexpr std::string_view kActionTimeDelta = "time_us_delta";  // null where kNoTime

std::string_view kind_name(TimelineKind kind);

// What source_event usually is: the alloc for traced elements, the free for frees without
// alloc, none for snapshot elements.
int64_t derived_source_event(const ReplayElement& element);

// Wrapping delta arithmetic (addresses are unsigned 64-bit).
inline int64_t delta(int64_t value, int64_t previous) {
  return static_cast<int64_t>(static_cast<uint64_t>(value) - static_cast<uint64_t>(previous));
}
inline int64_t undelta(int64_t previous, int64_t value_delta) {
  return static_cast<int64_t>(static_cast<uint64_t>(previous) + static_cast<uint64_t>(value_delta));
}

}  // namespace snapscope::allocations_json
