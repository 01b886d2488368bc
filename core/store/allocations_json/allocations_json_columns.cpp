#include "core/store/allocations_json/allocations_json_columns.h"

#include <stdexcept>

namespace snapscope::allocations_json {

int64_t written_value(const ReplayElement& e, ElementField field) {
  switch (field) {
    case ElementField::Addr:
      return static_cast<int64_t>(e.addr);  // unsigned 64-bit: the bit pattern
    case ElementField::Size:
      return static_cast<int64_t>(e.size);
    case ElementField::AllocEvent:
      return e.alloc_event;
    case ElementField::FreeEvent:
      if (e.alloc_event < 0 || e.free_event < 0) return e.free_event;
      // A replay frees an element after allocating it; anything else has no encoding.
      if (e.free_event < e.alloc_event)
        throw std::invalid_argument("allocations.json: free_event before alloc_event");
      return e.free_event - e.alloc_event;
    case ElementField::SourceEvent:
      return e.source_event();
    case ElementField::Stack:
      return e.stack;
    case ElementField::Origin:
      return static_cast<uint8_t>(e.origin);
    case ElementField::MergedFree:
      return e.merged_free;
    case ElementField::Block:
    case ElementField::Segment:
      break;
  }
  throw std::logic_error("allocations.json: no per-element value for this column");
}

std::string_view kind_name(TimelineKind kind) { return kind == TimelineKind::Blocks ? "blocks" : "segments"; }

}  // namespace snapscope::allocations_json
