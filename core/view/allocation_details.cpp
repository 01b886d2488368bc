#include "core/view/allocation_details.h"

#include <limits>
#include <stdexcept>

#include "core/util/format.h"

namespace snapscope {
namespace {

std::string origin_text(int64_t origin) {
  if (origin < 0 || origin > static_cast<int64_t>(Origin::SnapshotSegment)) return "unknown";
  return origin_name(static_cast<Origin>(origin));
}

}  // namespace

std::optional<int64_t> AllocationDetails::lifetime_events() const {
  int64_t lifetime = 0;
  if (!alloc_event || !free_event || __builtin_sub_overflow(*free_event, *alloc_event, &lifetime))
    return std::nullopt;
  return lifetime;
}

std::optional<int64_t> AllocationDetails::lifetime_us() const {
  int64_t lifetime = 0;
  if (!alloc_time_us || !free_time_us || __builtin_sub_overflow(*free_time_us, *alloc_time_us, &lifetime)) {
    return std::nullopt;  // only a crafted file has times that far apart
  }
  return lifetime;
}

namespace {

// The annotate events of the allocation's address while it was live.
std::vector<MemoryNote> read_memory_notes(const ElementsDbReader& db, StackTextReader& stacks,
                                          const AllocationDetails& details) {
  const int64_t after = details.alloc_event.value_or(-1);
  const int64_t before = details.free_event.value_or(std::numeric_limits<int64_t>::max());
  std::vector<MemoryNote> notes;
  for (const MemoryNoteRow& row : db.memory_notes(details.device, details.address, after, before)) {
    const std::vector<FrameText> frames = stacks.stack(row.stack_id);
    notes.push_back({row.event, row.time_us, row.metadata, frames.empty() ? "" : stack_location(frames, {})});
  }
  return notes;
}

// The private pool of the device's end-of-trace segment holding `address`, if any.
std::optional<std::array<int64_t, 2>> segment_pool_of(const ElementsDbReader& db, int device,
                                                      uint64_t address) {
  for (const SegmentRow& segment : db.final_segments(device)) {
    const bool holds = address >= segment.address && address - segment.address < segment.total_size;
    if (holds && segment.pool_id != std::array<int64_t, 2>{0, 0}) return segment.pool_id;
  }
  return std::nullopt;
}

}  // namespace

AllocationDetails read_allocation_details(const ElementsDbReader& db, StackTextReader& stacks, int device,
                                          TimelineKind kind, uint32_t elem) {
  std::optional<AllocationRow> row = db.allocation(device, kind, elem);
  if (!row) {
    throw std::runtime_error(db.path() + ": no allocation " + std::to_string(elem) + " on device " +
                             std::to_string(device));
  }
  AllocationDetails details;
  details.device = device;
  details.kind = kind;
  details.elem = elem;
  details.address = row->address;
  details.size = row->size;
  details.requested_size = row->requested_size;
  details.stream = row->stream;
  details.alloc_event = row->alloc_event;
  details.free_event = row->free_event;
  details.alloc_time_us = row->alloc_time_us;
  details.free_time_us = row->free_time_us;
  details.total_after_alloc = row->total_after_alloc;
  details.origin = origin_text(row->origin);
  details.compile_context = std::move(row->compile_context);
  details.user_metadata = std::move(row->user_metadata);
  details.forward_frames = row->forward_frames.value_or("");
  details.pool_id = row->pool_id;
  if (!details.pool_id && kind == TimelineKind::Blocks) {
    details.pool_id = segment_pool_of(db, device, details.address);
    details.pool_from_segment = details.pool_id.has_value();
  }
  details.frames = stacks.stack(row->stack_id);
  details.forward_stack = parse_frame_lines(details.forward_frames);
  if (kind == TimelineKind::Blocks) details.notes = read_memory_notes(db, stacks, details);
  return details;
}

AllocationDetails read_allocation_details(const ElementsDbReader& db, int device, TimelineKind kind,
                                          uint32_t elem) {
  StackTextReader stacks(db);
  return read_allocation_details(db, stacks, device, kind, elem);
}

namespace {

nlohmann::json notes_to_json(const std::vector<MemoryNote>& notes) {
  nlohmann::json out = nlohmann::json::array();
  for (const MemoryNote& note : notes) {
    out.push_back({{"event", note.event},
                   {"time_us", note.time_us ? nlohmann::json(*note.time_us) : nlohmann::json(nullptr)},
                   {"metadata", note.metadata},
                   {"location", note.location}});
  }
  return out;
}

}  // namespace

nlohmann::json details_to_json(const AllocationDetails& details, bool show_all_frames) {
  auto optional = [](const auto& value) { return value ? nlohmann::json(*value) : nlohmann::json(); };
  return {
      {"device", details.device},
      {"timeline", details.kind == TimelineKind::Blocks ? "blocks" : "segments"},
      {"elem", details.elem},
      {"address", format_address(details.address)},
      {"size", details.size},
      {"requested_size", optional(details.requested_size)},
      {"stream", details.stream},
      {"alloc_event", optional(details.alloc_event)},
      {"free_event", optional(details.free_event)},
      {"alloc_time_us", optional(details.alloc_time_us)},
      {"free_time_us", optional(details.free_time_us)},
      {"lifetime_events", optional(details.lifetime_events())},
      {"total_after_alloc", details.total_after_alloc},
      {"origin", details.origin},
      {"compile_context", details.compile_context},
      {"user_metadata", details.user_metadata},
      {"forward_frames", details.forward_frames},
      {"pool_id", details.pool_id ? nlohmann::json(*details.pool_id) : nlohmann::json(nullptr)},
      {"pool_from_segment", details.pool_from_segment},
      {"location", stack_location(details.frames, details.forward_stack)},
      {"stack", stack_lines(details.frames, show_all_frames)},
      {"forward_stack", stack_lines(details.forward_stack, show_all_frames)},
      {"notes", notes_to_json(details.notes)},
  };
}

std::string pool_text(const std::array<int64_t, 2>& pool_id) {
  return "(" + std::to_string(pool_id[0]) + ", " + std::to_string(pool_id[1]) + ")";
}

std::string details_to_text(const AllocationDetails& details, bool show_all_frames) {
  std::string text = "size: " + format_bytes(static_cast<double>(details.size)) + " (" +
                     format_bytes_exact(details.size) + ")\n";
  if (details.requested_size) text += "requested: " + format_bytes_exact(*details.requested_size) + "\n";
  text += "address: " + format_address(details.address) + "\n";
  text += "device: " + std::to_string(details.device) + "  stream: " + std::to_string(details.stream) + "\n";
  if (details.alloc_event) text += "alloc event: " + std::to_string(*details.alloc_event) + "\n";
  text += "free event: " + (details.free_event ? std::to_string(*details.free_event) : "never freed") + "\n";
  text += "origin: " + details.origin + "\n";
  if (!details.compile_context.empty()) text += "compile_context: " + details.compile_context + "\n";
  if (!details.user_metadata.empty()) text += "user_metadata: " + details.user_metadata + "\n";
  if (details.pool_id) {
    text +=
        "pool: " + pool_text(*details.pool_id) + (details.pool_from_segment ? " (its segment's)" : "") + "\n";
  }
  if (!details.forward_frames.empty()) text += "forward stack:\n" + details.forward_frames + "\n";
  for (const MemoryNote& note : details.notes) {
    text += "note at event " + std::to_string(note.event) + ": " + note.metadata;
    text += note.location.empty() ? "\n" : " (" + note.location + ")\n";
  }
  if (!details.frames.empty())
    text += "location: " + stack_location(details.frames, details.forward_stack) + "\n";
  text += "stack:\n";
  for (const std::string& line : stack_lines(details.frames, show_all_frames)) text += "  " + line + "\n";
  return text;
}

}  // namespace snapscope
