// Find allocations by a frame substring (function or file name) or by an address. Frame search
// works at the intern level: strings that contain the text, then frames naming them, then stacks
// holding such a frame, and only then one bitmap lookup per allocation, so it stays fast on
// millions of allocations. Matches come in allocation order, which next/previous walk through.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/cursor/stack_catalog.h"
#include "core/store/elements_db/elements_db_reader.h"
#include "core/timeline/timeline.h"

namespace snapscope {

enum class SearchMode : uint8_t {
  Auto,      // "0x..." or hex digits with at least one decimal digit: address; else frame text
  Frame,     // substring of a frame's function or file name (ASCII case-insensitive)
  Address,   // hex, with or without 0x: allocations whose [addr, addr + size) contains it
  Metadata,  // substring of the allocation event's user_metadata or compile_context; in Auto
             // mode text starting with "meta:" searches the rest of it this way
};

struct SearchQuery {
  enum class Kind : uint8_t { Frame, Address, Metadata };
  Kind kind = Kind::Frame;
  std::string text;      // Frame, Metadata: the substring
  uint64_t address = 0;  // Address
};

// Nothing for blank text or (in Address mode) text that is not a hex number.
std::optional<SearchQuery> parse_search_query(std::string_view text, SearchMode mode);

// A frame written the way the UI prints a location: "file.py:79" or "file.py:79 (forward)".
struct FrameLocationQuery {
  std::string file;      // substring of the frame's file name
  int64_t line = 0;      // exact
  std::string function;  // exact; empty: any
};
std::optional<FrameLocationQuery> parse_frame_location(std::string_view text);

// Per stack id: whether any of its frames matches `text`: a location ("file.py:79 (forward)",
// see parse_frame_location), else a substring of the function, the file name or the printed
// location ("BmmBackward0").
std::vector<bool> stacks_with_frame_text(const StackCatalog& catalog, std::string_view text);

// Ever-live elements matching a Frame or Address query, ordered by when they were allocated
// (stack position). Metadata lives in elements.db: ElementsDbReader::events_with_metadata.
std::vector<uint32_t> search_allocations(const Timeline& timeline, const StackCatalog& catalog,
                                         const SearchQuery& query);
// The elements whose allocation event is one of `events` (ascending event indices).
std::vector<uint32_t> elements_allocated_by(const Timeline& timeline, std::span<const int64_t> events);
// The elements live at each (address, event): the allocations annotate events name.
std::vector<uint32_t> elements_live_at(const Timeline& timeline, std::span<const AddressAtEvent> notes);
// The same order for elements found elsewhere (out-of-range ids are dropped).
std::vector<uint32_t> in_allocation_order(const Timeline& timeline, const std::vector<uint32_t>& elements);

// Next / previous match in time from the cursor: ordered by (alloc state, stack position);
// `selected` breaks the tie at the cursor's own state so repeated steps visit every match.
// Both wrap around; nothing when there are no matches.
std::optional<uint32_t> next_match(const Timeline& timeline, const std::vector<uint32_t>& matches,
                                   size_t cursor_state, std::optional<uint32_t> selected);
std::optional<uint32_t> previous_match(const Timeline& timeline, const std::vector<uint32_t>& matches,
                                       size_t cursor_state, std::optional<uint32_t> selected);

}  // namespace snapscope
