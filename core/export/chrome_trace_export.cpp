// chrome-trace: the Trace Event Format (chrome://tracing, ui.perfetto.dev) — counter tracks
// "allocated" and "reserved" for the device and the annotated phases as complete ("X") slices,
// timestamps in µs from time_us. Lined up with a torch.profiler trace (--align-to), they are
// written in its frame (µs after its baseTimeNanoseconds) under a pid it does not use; merged
// into it (--merge-into), its events and top-level fields come first, ours after, in one file.
#include <algorithm>
#include <cinttypes>
#include <cstdio>

#include "core/analysis/phase_table.h"
#include "core/export/export_common.h"
#include "core/export/profiler_trace.h"
#include "core/export/usage_walk.h"
#include "core/snapshot/snapshot_reader.h"
#include "core/store/allocations_json/json_text_writer.h"

namespace snapscope {

namespace {

constexpr int64_t kCounterThread = 0;
constexpr int64_t kPhaseThread = 1;

class TraceWriter {
 public:
  // `profiler`: the trace to line up with (null: none); `merge`: its events are written first.
  TraceWriter(const std::string& path, int64_t device, const ProfilerTrace* profiler, bool merge)
      : out_(path, BufferedFile::Encoding::Plain, BufferedFile::Create::Replace),
        pid_(profiler ? profiler->free_pid : device),
        base_time_ns_(profiler ? profiler->base_time_ns : 0),
        host_(merge && profiler ? &profiler->document : nullptr) {
    out_.raw("{\"traceEvents\":[");
    if (host_ == nullptr) return;
    for (const nlohmann::json& event : host_->at("traceEvents")) {
      out_.raw(first_ ? "\n" : ",\n");
      out_.raw(event.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
      first_ = false;
    }
  }

  void metadata(std::string_view what, int64_t tid, std::string_view name) {
    begin_event(what, "M", tid);
    out_.raw(",\"args\":{\"name\":");
    out_.string(name);
    out_.raw("}}");
  }

  void counter(std::string_view name, int64_t ts, uint64_t bytes) {
    begin_event(name, "C", kCounterThread);
    timestamp(ts);
    out_.raw(",\"args\":{\"bytes\":");
    out_.unsigned_integer(bytes);
    out_.raw("}}");
  }

  void slice(const PhaseRow& row) {
    begin_event(row.name, "X", kPhaseThread);
    timestamp(row.start_time_us);
    out_.raw(",\"dur\":");
    out_.integer(std::max<int64_t>(0, row.end_time_us - row.start_time_us));  // a duration: no shift
    out_.raw(",\"args\":{\"start_bytes\":");
    out_.unsigned_integer(row.start_bytes);
    out_.raw(",\"end_bytes\":");
    out_.unsigned_integer(row.end_bytes);
    out_.raw(",\"peak_bytes\":");
    out_.unsigned_integer(row.peak_bytes);
    out_.raw("}}");
  }

  // Merged: the profiler's other top-level fields (its base time, device properties...) follow.
  void close() {
    out_.raw("\n]");
    bool unit = false;
    if (host_ != nullptr) {
      for (const auto& [key, value] : host_->items()) {
        if (key == "traceEvents") continue;
        unit = unit || key == "displayTimeUnit";
        out_.raw(",");
        out_.key(key);
        out_.raw(value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
      }
    }
    if (!unit) out_.raw(",\"displayTimeUnit\":\"ms\"");
    out_.raw("}\n");
    out_.close();
  }

 private:
  // ,"ts": time_us in the output's frame: unchanged, or µs after the profiler's base time (whole
  // µs when the base is, else to the nanosecond).
  void timestamp(int64_t time_us) {
    out_.raw(",\"ts\":");
    if (base_time_ns_ % 1000 == 0) return out_.integer(time_us - base_time_ns_ / 1000);
    const int64_t ns = time_us * 1000 - base_time_ns_;
    char text[48];
    std::snprintf(text, sizeof text, "%s%" PRId64 ".%03" PRId64, ns < 0 ? "-" : "",
                  (ns < 0 ? -ns : ns) / 1000, (ns < 0 ? -ns : ns) % 1000);
    out_.raw(text);
  }

  void begin_event(std::string_view name, std::string_view phase, int64_t tid) {
    out_.raw(first_ ? "\n{" : ",\n{");
    first_ = false;
    out_.key("name");
    out_.string(name);
    out_.raw(",\"ph\":");
    out_.string(phase);
    out_.raw(",\"pid\":");
    out_.integer(pid_);
    out_.raw(",\"tid\":");
    out_.integer(tid);
  }

  JsonTextWriter out_;
  int64_t pid_;
  int64_t base_time_ns_;
  const nlohmann::json* host_;
  bool first_ = true;
};

// Counters change only where a timestamped action changes them; the first timestamped action
// also carries the totals before it (pre-existing memory), and the last closes both counters, so
// one that never changes (reserved without segment events) still spans the trace as a line.
void write_counters(TraceWriter& trace, const Timeline& blocks, const Timeline& segments,
                    const ReservedSeries& series) {
  bool started = false;
  uint64_t allocated = 0, reserved = 0;
  int64_t last_time = kNoTime, allocated_time = kNoTime, reserved_time = kNoTime;
  walk_usage(blocks, segments, series, [&](const UsageStep& step) {
    if (step.time_us == kNoTime) return;
    last_time = step.time_us;
    if (!started) {
      allocated = step.segment ? step.allocated : blocks.total_at_state(step.action);
      reserved = series.after_event(step.event - 1);
      trace.counter("allocated", allocated_time = step.time_us, allocated);
      trace.counter("reserved", reserved_time = step.time_us, reserved);
      started = true;
    }
    if (step.allocated != allocated)
      trace.counter("allocated", allocated_time = step.time_us, allocated = step.allocated);
    if (step.reserved != reserved)
      trace.counter("reserved", reserved_time = step.time_us, reserved = step.reserved);
  });
  if (!started) return;
  if (allocated_time != last_time) trace.counter("allocated", last_time, allocated);
  if (reserved_time != last_time) trace.counter("reserved", last_time, reserved);
}

bool has_times(const Timeline& timeline) {
  for (int64_t time : timeline.input().action_time_us) {
    if (time != kNoTime) return true;
  }
  return false;
}

}  // namespace

void write_chrome_trace(const ExportInput& input, const ExportRequest& request, const std::string& path) {
  if (input.segments == nullptr || input.reserved == nullptr)
    throw InputError(input.file + ": chrome-trace needs the segment timeline");
  if (!has_times(*input.blocks) && !has_times(*input.segments)) {
    throw InputError(input.file + ": the trace has no time_us, so a Chrome trace cannot place it");
  }
  TraceWriter trace(path, input.device, request.profiler.get(), request.merge_into_profiler);
  trace.metadata("process_name", kCounterThread,
                 is_host_device(input.device) ? "Pinned host memory (" + device_name(input.device) + ")"
                                              : "CUDA memory, " + device_name(input.device));
  trace.metadata("thread_name", kPhaseThread, "annotations");
  write_counters(trace, *input.blocks, *input.segments, *input.reserved);
  const PhaseTable phases =
      build_phase_table(*input.blocks, pair_annotations(input.annotations, input.device));
  for (const PhaseRow& row : phases.rows) {
    if (row.start_time_us != kNoTime && row.end_time_us != kNoTime) trace.slice(row);
  }
  trace.close();
}

}  // namespace snapscope
