#include "core/view/allocation_details.h"

#include <stdexcept>

#include "core/store/elements_db/elements_db.h"
#include "core/store/elements_db/sqlite_handle.h"
#include "core/util/format.h"

namespace snapscope {
namespace {

// Shared by both timelines; the segment table has no requested size (NULL in its place).
constexpr const char* kBlockQuery = R"sql(
SELECT a.addr, a.size, a.requested_size, a.stream, a.alloc_event, a.free_event, a.alloc_time_us,
       a.free_time_us, a.total_after_alloc, a.origin, a.stack_id, cc.text, um.text, ff.text,
       x.pool_id_0, x.pool_id_1
FROM allocation_view a
LEFT JOIN strings cc ON cc.id = a.compile_context
LEFT JOIN strings um ON um.id = a.user_metadata
LEFT JOIN event_extras x ON x.device = a.device AND x.idx = a.alloc_event
LEFT JOIN strings ff ON ff.id = x.forward_frames
WHERE a.device = ? AND a.elem = ?)sql";

constexpr const char* kSegmentQuery = R"sql(
SELECT a.addr, a.size, NULL, a.stream, a.alloc_event, a.free_event, a.alloc_time_us,
       a.free_time_us, a.total_after_alloc, a.origin, a.stack_id, '', '', '', NULL, NULL
FROM segment_allocation_view a
WHERE a.device = ? AND a.elem = ?)sql";

constexpr const char* kStackQuery = R"sql(
SELECT n.text, fl.text, f.line, op.text, nm.text, tg.text, tr.text, s.frame_id, f.id IS NULL
FROM stacks s
LEFT JOIN frames f ON f.id = s.frame_id
LEFT JOIN strings n ON n.id = f.name
LEFT JOIN strings fl ON fl.id = f.filename
LEFT JOIN strings op ON op.id = f.fx_node_op
LEFT JOIN strings nm ON nm.id = f.fx_node_name
LEFT JOIN strings tg ON tg.id = f.fx_node_target
LEFT JOIN strings tr ON tr.id = f.fx_original_trace
WHERE s.stack_id = ?
ORDER BY s.depth)sql";

std::optional<int64_t> optional_column(const SqliteStatement& row, int column) {
  if (row.column_is_null(column)) return std::nullopt;
  return row.column_int(column);
}

std::string origin_text(int64_t origin) {
  if (origin < 0 || origin > static_cast<int64_t>(Origin::SnapshotSegment)) return "unknown";
  return origin_name(static_cast<Origin>(origin));
}

// The queries above only fit one schema: refuse other versions instead of failing on a column.
void check_version(SqliteDatabase& db) {
  SqliteStatement row = db.prepare("SELECT value FROM meta WHERE key = 'format_version'");
  const std::string version = row.next_row() ? row.column_text(0) : "none";
  if (version != std::to_string(kElementsDbVersion)) {
    throw std::runtime_error(db.path() + ": elements.db format version " + version + ", this build reads " +
                             std::to_string(kElementsDbVersion) + "; convert the snapshot again");
  }
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

ElementsDbReader::ElementsDbReader(const std::string& path)
    : db_(std::make_unique<SqliteDatabase>(path, SqliteDatabase::Mode::ReadOnly)) {
  check_version(*db_);
}

ElementsDbReader::~ElementsDbReader() = default;

AllocationDetails ElementsDbReader::allocation(int device, TimelineKind kind, uint32_t elem) const {
  SqliteStatement row = db_->prepare(kind == TimelineKind::Blocks ? kBlockQuery : kSegmentQuery);
  row.bind(1, int64_t{device});
  row.bind(2, int64_t{elem});
  if (!row.next_row()) {
    throw std::runtime_error(db_->path() + ": no allocation " + std::to_string(elem) + " on device " +
                             std::to_string(device));
  }
  AllocationDetails details;
  details.device = device;
  details.kind = kind;
  details.elem = elem;
  details.address = static_cast<uint64_t>(row.column_int(0));
  details.size = static_cast<uint64_t>(row.column_int(1));
  if (!row.column_is_null(2)) details.requested_size = static_cast<uint64_t>(row.column_int(2));
  details.stream = static_cast<uint64_t>(row.column_int(3));
  details.alloc_event = optional_column(row, 4);
  details.free_event = optional_column(row, 5);
  details.alloc_time_us = optional_column(row, 6);
  details.free_time_us = optional_column(row, 7);
  details.total_after_alloc = static_cast<uint64_t>(row.column_int(8));
  details.origin = origin_text(row.column_int(9));
  const int64_t stack_id = row.column_int(10);
  details.compile_context = row.column_text(11);
  details.user_metadata = row.column_text(12);
  if (!row.column_is_null(13)) details.forward_frames = row.column_text(13);
  if (!row.column_is_null(14) && !row.column_is_null(15)) {
    details.pool_id = std::array<int64_t, 2>{row.column_int(14), row.column_int(15)};
  }
  details.frames = stack(stack_id);
  details.forward_stack = parse_frame_lines(details.forward_frames);
  return details;
}

std::vector<FrameText> ElementsDbReader::stack(int64_t stack_id) const {
  SqliteStatement rows = db_->prepare(kStackQuery);
  rows.bind(1, stack_id);
  std::vector<FrameText> frames;
  while (rows.next_row()) {
    if (rows.column_int(8) != 0) {  // a crafted or damaged file: say so in the frame's place
      frames.push_back({"<frame " + std::to_string(rows.column_int(7)) + " missing from elements.db>", "", 0,
                        "", "", "", ""});
      continue;
    }
    frames.push_back({rows.column_text(0), rows.column_text(1), rows.column_int(2), rows.column_text(3),
                      rows.column_text(4), rows.column_text(5), rows.column_text(6)});
  }
  return frames;
}

std::vector<ElementsDbReader::ElementStack> ElementsDbReader::element_stacks(int device,
                                                                             TimelineKind kind) const {
  SqliteStatement rows =
      db_->prepare(kind == TimelineKind::Blocks
                       ? "SELECT elem, stack_id, size FROM allocations WHERE device = ? ORDER BY elem"
                       : "SELECT elem, stack_id, size FROM segment_allocations WHERE device = ? "
                         "ORDER BY elem");
  rows.bind(1, int64_t{device});
  std::vector<ElementStack> result;
  while (rows.next_row()) {
    result.push_back({static_cast<uint32_t>(rows.column_int(0)), rows.column_int(1),
                      static_cast<uint64_t>(rows.column_int(2))});
  }
  return result;
}

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
      {"location", stack_location(details.frames, details.forward_stack)},
      {"stack", stack_lines(details.frames, show_all_frames)},
      {"forward_stack", stack_lines(details.forward_stack, show_all_frames)},
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
  if (details.pool_id) text += "pool: " + pool_text(*details.pool_id) + "\n";
  if (!details.forward_frames.empty()) text += "forward stack:\n" + details.forward_frames + "\n";
  if (!details.frames.empty())
    text += "location: " + stack_location(details.frames, details.forward_stack) + "\n";
  text += "stack:\n";
  for (const std::string& line : stack_lines(details.frames, show_all_frames)) text += "  " + line + "\n";
  return text;
}

}  // namespace snapscope
