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
// [] when it is the usual one (always, for files this version writes).
enum class Coding : uint8_t {
  Plain,
  Delta,    // value[i] = value[i-1] + delta[i] (mod 2^64), value[-1] = 0
  Sparse,   // [index, value, index, value, ...] for the values other than `fallback`, indices ascending
  Derived,  // [] = ReplayElement::source_event()
};

enum class ElementField : uint8_t {
  Addr,
  Size,
  AllocEvent,
  FreeEvent,
  SourceEvent,
  Block,
  Segment,
  Stack,
  Origin,
  MergedFree,
};

struct ElementColumn {
  std::string_view name;
  ElementField field;
  Coding coding = Coding::Plain;
  int64_t fallback = 0;  // Sparse only
};
// In the order they are written.
inline constexpr std::array<ElementColumn, 10> kElementColumns = {{
    {"addr", ElementField::Addr, Coding::Delta},
    {"size", ElementField::Size},
    {"alloc_event", ElementField::AllocEvent, Coding::Delta},
    {"free_event", ElementField::FreeEvent},
    {"source_event", ElementField::SourceEvent, Coding::Derived},
    {"block", ElementField::Block, Coding::Sparse, -1},
    {"segment", ElementField::Segment, Coding::Sparse, -1},
    {"stack", ElementField::Stack},
    {"origin", ElementField::Origin, Coding::Sparse, 0},
    {"merged_free", ElementField::MergedFree, Coding::Sparse, 0},
}};
constexpr const ElementColumn& element_column(ElementField field) {
  return kElementColumns[static_cast<size_t>(field)];
}

// A field of an element as written, before delta coding: free_event relative to alloc_event
// when both exist (a lifetime: a few digits instead of a full event index). Not for Block and
// Segment, which live in ReplayInput::element_blocks / element_segments.
int64_t written_value(const ReplayElement& element, ElementField field);
// free_event from its written value, once alloc_event is known.
inline int64_t free_event_from_written(int64_t alloc_event, int64_t written) {
  return alloc_event >= 0 && written >= 0 ? alloc_event + written : written;
}

// Action columns. Monotone series are delta-encoded: value[i] = value[i-1] + delta[i].
inline constexpr std::string_view kActionElem = "elem_delta";
inline constexpr std::string_view kActionEventDelta = "event_delta";
inline constexpr std::string_view kActionTimeDelta = "time_us_delta";  // null where kNoTime

std::string_view kind_name(TimelineKind kind);

// Wrapping delta arithmetic (addresses are unsigned 64-bit).
inline int64_t delta(int64_t value, int64_t previous) {
  return static_cast<int64_t>(static_cast<uint64_t>(value) - static_cast<uint64_t>(previous));
}
inline int64_t undelta(int64_t previous, int64_t value_delta) {
  return static_cast<int64_t>(static_cast<uint64_t>(previous) + static_cast<uint64_t>(value_delta));
}

}  // namespace snapscope::allocations_json
