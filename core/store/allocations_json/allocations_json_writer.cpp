// allocations.json writer: both timelines' replay inputs per device, column by column.
#include <string_view>

#include "core/store/allocations_json/allocations_json.h"
#include "core/store/allocations_json/allocations_json_columns.h"
#include "core/store/allocations_json/json_text_writer.h"

namespace snapscope {
namespace {

template <typename Values, typename Encode>
void write_array(JsonTextWriter& out, const Values& values, Encode encode) {
  out.raw("[");
  bool first = true;
  for (const auto& value : values) {
    if (!first) out.raw(",");
    first = false;
    encode(value);
  }
  out.raw("]");
}

// (index, value) pairs of the elements whose value is not the column's default.
void write_sparse_column(JsonTextWriter& out, const allocations_json::ElementColumn& column,
                         const Column<ReplayElement>& elements) {
  out.raw("[");
  bool first = true;
  for (size_t i = 0; i < elements.size(); ++i) {
    const int64_t value = allocations_json::written_value(elements[i], column.field);
    if (value == column.fallback) continue;
    if (!first) out.raw(",");
    first = false;
    out.integer(static_cast<int64_t>(i));
    out.raw(",");
    out.integer(value);
  }
  out.raw("]");
}

// Snapshot elements' blocks or segments: already (elem, index) pairs.
void write_refs(JsonTextWriter& out, const Column<ElementRef>& refs) {
  out.raw("[");
  bool first = true;
  for (const ElementRef& ref : refs) {
    if (!first) out.raw(",");
    first = false;
    out.integer(ref.elem);
    out.raw(",");
    out.integer(ref.index);
  }
  out.raw("]");
}

void write_column(JsonTextWriter& out, const allocations_json::ElementColumn& column,
                  const ReplayInput& input) {
  using allocations_json::Coding;
  using allocations_json::ElementField;
  if (column.field == ElementField::Block || column.field == ElementField::Segment) {
    write_refs(out, column.field == ElementField::Block ? input.element_blocks : input.element_segments);
    return;
  }
  if (column.coding == Coding::Sparse) {
    write_sparse_column(out, column, input.elements);
    return;
  }
  if (column.coding == Coding::Derived) {
    out.raw("[]");  // the reader derives every value
    return;
  }
  const bool delta = column.coding == Coding::Delta;
  int64_t previous = 0;
  write_array(out, input.elements, [&](const ReplayElement& e) {
    const int64_t value = allocations_json::written_value(e, column.field);
    out.integer(delta ? allocations_json::delta(value, previous) : value);
    previous = value;
  });
}

void write_elements(JsonTextWriter& out, const ReplayInput& input) {
  out.raw("{");
  bool first = true;
  for (const allocations_json::ElementColumn& column : allocations_json::kElementColumns) {
    if (!first) out.raw(",\n");
    first = false;
    out.key(column.name);
    write_column(out, column, input);
  }
  out.raw("}");
}

// Null marks an action without a timestamp; deltas run from the previous timestamped action.
void write_time_deltas(JsonTextWriter& out, const ActionTimes& times) {
  int64_t previous = 0;
  write_array(out, times, [&](int64_t time_us) {
    if (time_us == kNoTime) {
      out.raw("null");
      return;
    }
    out.integer(allocations_json::delta(time_us, previous));  // wraps, never overflows; the reader checks
    previous = time_us;
  });
}

void write_actions(JsonTextWriter& out, const ReplayInput& input) {
  out.raw("{");
  out.key(allocations_json::kActionElem);
  int64_t previous = 0;
  write_array(out, input.actions, [&](const ReplayAction& action) {
    out.integer(int64_t{action.elem} - previous);
    previous = action.elem;
  });
  out.raw(",\n");
  out.key(allocations_json::kActionEventDelta);
  out.raw("[]");  // derived from the elements (ActionEventWalk): the reader needs none
  out.raw(",\n");
  out.key(allocations_json::kActionTimeDelta);
  write_time_deltas(out, input.action_time_us);
  out.raw("}");
}

void write_replay(JsonTextWriter& out, const ReplayInput& input) {
  out.raw("{");
  out.key("kind");
  out.string(allocations_json::kind_name(input.kind));
  out.raw(",");
  out.key("synthetic_action");
  out.raw(input.synthetic_action ? "true" : "false");
  out.raw(",");
  out.key("element_count");
  out.unsigned_integer(input.elements.size());
  out.raw(",");
  out.key("action_count");
  out.unsigned_integer(input.actions.size());
  out.raw(",\n");
  out.key("elements");
  write_elements(out, input);
  out.raw(",\n");
  out.key("initial_stack");
  write_array(out, input.initial_stack, [&](uint32_t elem) { out.integer(elem); });
  out.raw(",\n");
  out.key("actions");
  write_actions(out, input);
  out.raw("}");
}

void write_device(JsonTextWriter& out, const DeviceLayoutRef& device) {
  out.raw("{");
  out.key("device");
  out.integer(device.device);
  out.raw(",\n");
  out.key("blocks");
  write_replay(out, *device.blocks);
  out.raw(",\n");
  out.key("segments");
  write_replay(out, *device.segments);
  out.raw("}");
}

}  // namespace

AllocationsFile make_allocations_file(const Snapshot& snapshot, int only_device) {
  AllocationsFile file;
  file.source_file = snapshot.source_path;
  file.source_bytes = snapshot.source_bytes;
  for (const int device : snapshot.devices()) {
    if (only_device >= 0 && device != only_device) continue;
    DeviceLayout& layout = file.devices.emplace_back();
    layout.device = device;
    layout.blocks = derive_replay_input(snapshot, device, TimelineKind::Blocks);
    layout.segments = derive_replay_input(snapshot, device, TimelineKind::Segments);
  }
  return file;
}

void write_allocations_json(const AllocationsFile& file, const std::string& path) {
  std::vector<DeviceLayoutRef> refs;
  for (const DeviceLayout& layout : file.devices)
    refs.push_back({layout.device, &layout.blocks, &layout.segments});
  write_allocations_json(file.source_file, file.source_bytes, refs, path);
}

void write_allocations_json(const std::string& source_file, uint64_t source_bytes,
                            std::span<const DeviceLayoutRef> devices, const std::string& path) {
  const bool zstd = path.ends_with(".zst");
  JsonTextWriter out(path, zstd ? BufferedFile::Encoding::Zstd : BufferedFile::Encoding::Plain);
  out.raw("{");
  out.key("format");
  out.string(allocations_json::kFormatName);
  out.raw(",");
  out.key("version");
  out.integer(kAllocationsJsonVersion);
  out.raw(",\n");
  out.key("source_file");
  out.string(source_file);
  out.raw(",\n");
  out.key("source_bytes");
  out.unsigned_integer(source_bytes);
  out.raw(",\n");
  out.key("devices");
  write_array(out, devices, [&](const DeviceLayoutRef& device) { write_device(out, device); });
  out.raw("}\n");
  out.close();
}

}  // namespace snapscope
