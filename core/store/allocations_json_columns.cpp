#include "core/store/allocations_json_columns.h"

#include <limits>
#include <stdexcept>

namespace snapscope::allocations_json {
namespace {

// uint32 indices with kNoIndex are written as -1, which reads better than 4294967295.
int64_t index_to_json(uint32_t index) { return index == kNoIndex ? -1 : int64_t{index}; }

bool index_from_json(uint32_t& field, int64_t value) {
  if (value == -1) {
    field = kNoIndex;
    return true;
  }
  if (value < 0 || value >= int64_t{kNoIndex}) return false;
  field = static_cast<uint32_t>(value);
  return true;
}

bool event_from_json(int64_t& field, int64_t value) {
  if (value < -1) return false;
  field = value;
  return true;
}

// free_event is written relative to alloc_event when both exist (a lifetime: a few digits
// instead of a full event index); -1 (never freed) and the frees of elements without an alloc
// event are written as they are. Decoding needs alloc_event first (column order).
int64_t free_event_to_json(const ReplayElement& e) {
  if (e.alloc_event < 0 || e.free_event < 0) return e.free_event;
  // A replay frees an element after allocating it; anything else has no encoding.
  if (e.free_event < e.alloc_event)
    throw std::invalid_argument("allocations.json: free_event before alloc_event");
  return e.free_event - e.alloc_event;
}

bool free_event_from_json(ReplayElement& e, int64_t value) {
  return event_from_json(e.free_event, e.alloc_event >= 0 && value >= 0 ? e.alloc_event + value : value);
}

// Addresses and sizes are unsigned 64-bit; the reader hands their bit pattern through int64.
bool unsigned_from_json(uint64_t& field, int64_t value) {
  field = static_cast<uint64_t>(value);
  return true;
}

}  // namespace

const std::array<ElementColumn, 10> kElementColumns = {{
    {"addr", [](const ReplayElement& e) { return static_cast<int64_t>(e.addr); },
     [](ReplayElement& e, int64_t v) { return unsigned_from_json(e.addr, v); }, Coding::Delta},
    {"size", [](const ReplayElement& e) { return static_cast<int64_t>(e.size); },
     [](ReplayElement& e, int64_t v) { return unsigned_from_json(e.size, v); }},
    {"alloc_event", [](const ReplayElement& e) { return e.alloc_event; },
     [](ReplayElement& e, int64_t v) { return event_from_json(e.alloc_event, v); }, Coding::Delta},
    {"free_event", free_event_to_json, free_event_from_json},
    {"source_event", [](const ReplayElement& e) { return e.source_event; },
     [](ReplayElement& e, int64_t v) { return event_from_json(e.source_event, v); }, Coding::Derived},
    {"block", [](const ReplayElement& e) { return index_to_json(e.block); },
     [](ReplayElement& e, int64_t v) { return index_from_json(e.block, v); }, Coding::Sparse, -1},
    {"segment", [](const ReplayElement& e) { return index_to_json(e.segment); },
     [](ReplayElement& e, int64_t v) { return index_from_json(e.segment, v); }, Coding::Sparse, -1},
    {"stack", [](const ReplayElement& e) { return int64_t{e.stack}; },
     [](ReplayElement& e, int64_t v) {
       if (v < 0 || v > int64_t{std::numeric_limits<StackId>::max()}) return false;
       e.stack = static_cast<StackId>(v);
       return true;
     }},
    {"origin", [](const ReplayElement& e) { return int64_t{static_cast<uint8_t>(e.origin)}; },
     [](ReplayElement& e, int64_t v) {
       if (v < 0 || v > static_cast<int64_t>(Origin::SnapshotSegment)) return false;
       e.origin = static_cast<Origin>(v);
       return true;
     },
     Coding::Sparse, 0},
    {"merged_free", [](const ReplayElement& e) { return int64_t{e.merged_free}; },
     [](ReplayElement& e, int64_t v) {
       if (v != 0 && v != 1) return false;
       e.merged_free = v == 1;
       return true;
     },
     Coding::Sparse, 0},
}};

int64_t derived_source_event(const ReplayElement& element) {
  switch (element.origin) {
    case Origin::Traced:
      return element.alloc_event;
    case Origin::FreeWithoutAlloc:
      return element.free_event;
    default:
      return -1;
  }
}

std::string_view kind_name(TimelineKind kind) { return kind == TimelineKind::Blocks ? "blocks" : "segments"; }

}  // namespace snapscope::allocations_json
