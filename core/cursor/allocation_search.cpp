#include "core/cursor/allocation_search.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdint>
#include <iterator>
#include <unordered_map>

#include "core/analysis/live_elements.h"
#include "core/analysis/source_location.h"

namespace snapscope {
namespace {

char lower(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }

bool contains_ignoring_case(std::string_view haystack, std::string_view lowered_needle) {
  return std::search(haystack.begin(), haystack.end(), lowered_needle.begin(), lowered_needle.end(),
                     [](char a, char b) { return lower(a) == b; }) != haystack.end();
}

std::string_view trimmed(std::string_view text) {
  const size_t first = text.find_first_not_of(" \t");
  if (first == std::string_view::npos) return {};
  return text.substr(first, text.find_last_not_of(" \t") - first + 1);
}

std::optional<uint64_t> parse_hex(std::string_view text) {
  if (text.starts_with("0x") || text.starts_with("0X")) text.remove_prefix(2);
  uint64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value, 16);
  if (text.empty() || error != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

// Auto mode takes hex-looking text as an address only when it has a decimal digit, so words made
// of a-f letters ("add", "deadbeef"-less names) stay frame searches.
bool looks_like_address(std::string_view text) {
  if (text.starts_with("0x") || text.starts_with("0X")) return true;
  const bool all_hex = std::all_of(text.begin(), text.end(), [](char c) { return std::isxdigit(c) != 0; });
  return all_hex && std::any_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// Sort key of a match in time: when it became live, then where it sits in the stack.
std::pair<size_t, uint32_t> time_key(const Timeline& timeline, uint32_t elem) {
  return {timeline.alloc_state(elem), timeline.stack_position(elem)};
}

// The cursor's own key: its state, and the selected element's position when that element was
// allocated right there.
std::pair<size_t, int64_t> cursor_key(const Timeline& timeline, size_t cursor_state,
                                      std::optional<uint32_t> selected, int64_t no_selection) {
  if (selected && *selected < timeline.element_count() && timeline.ever_live(*selected) &&
      timeline.alloc_state(*selected) == cursor_state) {
    return {cursor_state, timeline.stack_position(*selected)};
  }
  return {cursor_state, no_selection};
}

std::pair<size_t, int64_t> widened(std::pair<size_t, uint32_t> key) { return {key.first, key.second}; }

constexpr std::string_view kMetadataPrefix = "meta:";

}  // namespace

std::optional<SearchQuery> parse_search_query(std::string_view text, SearchMode mode) {
  text = trimmed(text);
  if (mode == SearchMode::Auto && text.starts_with(kMetadataPrefix)) {
    text = trimmed(text.substr(kMetadataPrefix.size()));
    mode = SearchMode::Metadata;
  }
  if (text.empty()) return std::nullopt;
  if (mode == SearchMode::Metadata) return SearchQuery{SearchQuery::Kind::Metadata, std::string(text), 0};
  if (mode == SearchMode::Address || (mode == SearchMode::Auto && looks_like_address(text))) {
    const auto address = parse_hex(text);
    if (address) return SearchQuery{SearchQuery::Kind::Address, std::string(text), *address};
    if (mode == SearchMode::Address) return std::nullopt;
  }
  return SearchQuery{SearchQuery::Kind::Frame, std::string(text), 0};
}

std::optional<FrameLocationQuery> parse_frame_location(std::string_view text) {
  text = trimmed(text);
  std::string_view function;
  if (text.ends_with(")")) {
    const size_t open = text.rfind(" (");
    if (open == std::string_view::npos) return std::nullopt;
    function = text.substr(open + 2, text.size() - open - 3);
    text = trimmed(text.substr(0, open));
  }
  const size_t colon = text.rfind(':');
  if (colon == std::string_view::npos || colon == 0) return std::nullopt;
  int64_t line = 0;
  const std::string_view digits = text.substr(colon + 1);
  const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), line);
  if (digits.empty() || error != std::errc() || end != digits.data() + digits.size()) return std::nullopt;
  return FrameLocationQuery{std::string(text.substr(0, colon)), line, std::string(function)};
}

std::vector<bool> stacks_with_frame_text(const StackCatalog& catalog, std::string_view text) {
  const std::optional<FrameLocationQuery> location = parse_frame_location(text);
  // "file.py:79 (forward)": the file part is the substring; line and function must match.
  std::string needle(location ? std::string_view(location->file) : text);
  std::transform(needle.begin(), needle.end(), needle.begin(), lower);
  std::vector<bool> string_hit(catalog.string_count());
  for (StringId id = 0; id < catalog.string_count(); ++id) {
    string_hit[id] = contains_ignoring_case(catalog.string(id), needle);
  }
  std::vector<bool> frame_hit(catalog.frame_count());
  for (FrameId id = 0; id < catalog.frame_count(); ++id) {
    const Frame& frame = catalog.frame_ids(id);
    const auto hit = [&](StringId s) { return s < string_hit.size() && string_hit[s]; };
    if (location) {
      frame_hit[id] = hit(frame.filename) && frame.line == location->line &&
                      (location->function.empty() || catalog.string(frame.name) == location->function);
    } else {
      frame_hit[id] = hit(frame.name) || hit(frame.filename) ||
                      contains_ignoring_case(format_location(catalog.frame(id)), needle);
    }
  }
  std::vector<bool> stack_hit(catalog.stack_count());
  for (StackId id = 0; id < catalog.stack_count(); ++id) {
    for (FrameId frame : catalog.stack_frames(id)) {
      if (frame < frame_hit.size() && frame_hit[frame]) {
        stack_hit[id] = true;
        break;
      }
    }
  }
  return stack_hit;
}

std::vector<uint32_t> elements_allocated_by(const Timeline& timeline, std::span<const int64_t> events) {
  std::vector<uint32_t> found;
  if (events.empty()) return found;
  for (uint32_t elem = 0; elem < timeline.element_count(); ++elem) {
    const EventIndex alloc = timeline.element(elem).alloc_event;
    if (alloc >= 0 && std::binary_search(events.begin(), events.end(), int64_t{alloc})) found.push_back(elem);
  }
  return found;
}

std::vector<uint32_t> elements_live_at(const Timeline& timeline, std::span<const AddressAtEvent> notes) {
  if (notes.empty()) return {};
  std::unordered_multimap<uint64_t, int64_t> events_at;
  for (const AddressAtEvent& note : notes) events_at.emplace(note.address, note.event);
  std::vector<uint32_t> found;
  for (uint32_t elem = 0; elem < timeline.element_count(); ++elem) {
    const ReplayElement& element = timeline.element(elem);
    const auto [first, last] = events_at.equal_range(element.addr);
    for (auto it = first; it != last; ++it) {
      const bool after_alloc = element.alloc_event < it->second;  // -1: live before the trace
      const bool before_free = element.free_event < 0 || it->second < element.free_event;
      if (after_alloc && before_free) {
        found.push_back(elem);
        break;
      }
    }
  }
  return found;
}

std::vector<uint32_t> in_allocation_order(const Timeline& timeline, const std::vector<uint32_t>& elements) {
  std::vector<uint32_t> ordered;
  for (uint32_t elem : elements) {
    if (elem < timeline.element_count() && timeline.ever_live(elem)) ordered.push_back(elem);
  }
  std::sort(ordered.begin(), ordered.end(),
            [&](uint32_t a, uint32_t b) { return timeline.stack_position(a) < timeline.stack_position(b); });
  ordered.erase(std::unique(ordered.begin(), ordered.end()), ordered.end());
  return ordered;
}

std::vector<uint32_t> search_allocations(const Timeline& timeline, const StackCatalog& catalog,
                                         const SearchQuery& query) {
  if (query.kind == SearchQuery::Kind::Metadata) return {};
  std::vector<bool> stack_hit;
  if (query.kind == SearchQuery::Kind::Frame) stack_hit = stacks_with_frame_text(catalog, query.text);
  const auto matches = [&](const ReplayElement& element) {
    if (query.kind == SearchQuery::Kind::Address) {
      return element.addr == query.address ||
             (query.address > element.addr && query.address - element.addr < element.size);
    }
    const StackId stack = allocation_stack(element);
    return stack < stack_hit.size() && stack_hit[stack];
  };
  std::vector<uint32_t> found;
  // Stack positions are in allocation order, so this walk yields matches in time order.
  for (uint32_t position = 0; position < timeline.stack_size(); ++position) {
    const uint32_t elem = timeline.element_at_stack_position(position);
    if (matches(timeline.element(elem))) found.push_back(elem);
  }
  return found;
}

std::optional<uint32_t> next_match(const Timeline& timeline, const std::vector<uint32_t>& matches,
                                   size_t cursor_state, std::optional<uint32_t> selected) {
  if (matches.empty()) return std::nullopt;
  const auto from = cursor_key(timeline, cursor_state, selected, -1);
  // Matches are in time order: bisect for the first one after the cursor.
  const auto after = std::partition_point(matches.begin(), matches.end(), [&](uint32_t elem) {
    return widened(time_key(timeline, elem)) <= from;
  });
  return after == matches.end() ? matches.front() : *after;
}

std::optional<uint32_t> previous_match(const Timeline& timeline, const std::vector<uint32_t>& matches,
                                       size_t cursor_state, std::optional<uint32_t> selected) {
  if (matches.empty()) return std::nullopt;
  const auto from = cursor_key(timeline, cursor_state, selected, INT64_MAX);
  const auto at_or_after = std::partition_point(matches.begin(), matches.end(), [&](uint32_t elem) {
    return widened(time_key(timeline, elem)) < from;
  });
  return at_or_after == matches.begin() ? matches.back() : *std::prev(at_or_after);
}

}  // namespace snapscope
