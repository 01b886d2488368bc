// timeline-json: raw events for custom analysis — every alloc/free of the block timeline and
// every segment alloc/free, in event order, with the allocated and reserved totals after it and
// the fragmentation ratio. Streamed: memory stays flat however long the trace is.
#include <cstdio>

#include "core/allocator/usage_curve.h"
#include "core/export/export_common.h"
#include "core/export/usage_walk.h"
#include "core/snapshot/snapshot_reader.h"
#include "core/store/allocations_json/json_text_writer.h"

namespace snapscope {

namespace {

constexpr std::string_view kTimelineFormat = "snapscope-timeline/1";

std::string_view step_action(const Timeline& timeline, const UsageStep& step) {
  const bool frees = timeline.action_is_free(step.action);
  if (step.segment) return frees ? "segment_free" : "segment_alloc";
  return frees ? "free" : "alloc";
}

// ,"key":value — every member after an object's first.
void member(JsonTextWriter& out, std::string_view key, uint64_t value) {
  out.raw(",");
  out.key(key);
  out.unsigned_integer(value);
}

void write_step(JsonTextWriter& out, const Timeline& timeline, const UsageStep& step, bool first) {
  const ReplayElement& element = timeline.element(timeline.action_elem(step.action));
  out.raw(first ? "\n{" : ",\n{");
  out.key("event");
  out.integer(step.event);
  out.raw(",");
  out.key("time_us");
  if (step.time_us == kNoTime) {
    out.raw("null");
  } else {
    out.integer(step.time_us);
  }
  out.raw(",");
  out.key("action");
  out.string(step_action(timeline, step));
  member(out, "addr", element.addr);
  member(out, "size", element.size);
  member(out, "allocated", step.allocated);
  member(out, "reserved", step.reserved);
  char ratio[32];
  std::snprintf(ratio, sizeof ratio, ",\"fragmentation\":%.6f}",
                fragmentation_ratio(step.allocated, step.reserved));
  out.raw(ratio);
}

}  // namespace

void write_timeline_json(const ExportInput& input, const std::string& path) {
  if (input.segments == nullptr || input.reserved == nullptr)
    throw InputError(input.file + ": timeline-json needs the segment timeline");
  const Timeline& blocks = *input.blocks;
  const Timeline& segments = *input.segments;
  JsonTextWriter out(path, BufferedFile::Encoding::Plain, BufferedFile::Create::Replace);
  out.raw("{");
  out.key("format");
  out.string(kTimelineFormat);
  out.raw(",");
  out.key("file");
  out.string(display_name(input));
  out.raw(",");
  out.key("device");
  out.integer(input.device);
  member(out, "initial_allocated", blocks.total_at_state(0));
  member(out, "initial_reserved", input.reserved->initial());
  out.raw(",");
  out.key("events");
  out.raw("[");
  bool first = true;
  walk_usage(blocks, segments, *input.reserved, [&](const UsageStep& step) {
    write_step(out, step.segment ? segments : blocks, step, first);
    first = false;
  });
  out.raw("\n]}\n");
  out.close();
}

}  // namespace snapscope
