#include "core/export/profiler_trace.h"

#include <algorithm>

#include "core/snapshot/snapshot_reader.h"
#include "core/util/regular_file.h"

namespace snapscope {
namespace {

// The memory counters' pid: above every integer pid of the trace, so it names a process of its
// own in Perfetto (Kineto's device pids start at 0, CPU pids are the OS's).
int64_t pid_above_all(const nlohmann::json& events) {
  int64_t highest = 0;
  for (const nlohmann::json& event : events) {
    if (!event.is_object()) continue;
    const auto pid = event.find("pid");
    if (pid != event.end() && pid->is_number_integer()) highest = std::max(highest, pid->get<int64_t>());
  }
  return highest + 1;
}

int64_t base_time_of(const ProfilerTrace& trace, const nlohmann::json& document) {
  const auto base = document.find("baseTimeNanoseconds");
  if (base == document.end()) return 0;
  if (!base->is_number_integer() || base->get<int64_t>() < 0)
    throw InputError(trace.file + ": baseTimeNanoseconds is not a non-negative integer");
  return base->get<int64_t>();
}

}  // namespace

ProfilerTrace read_profiler_trace(const std::string& path, bool keep_document) {
  ProfilerTrace trace;
  trace.file = path;
  std::string error;
  const std::string text = read_regular_file(path, kMaxProfilerTraceBytes, error);
  if (!error.empty()) throw InputError(path + ": " + error);
  nlohmann::json document = nlohmann::json::parse(text, nullptr, false);
  if (document.is_discarded())
    throw InputError(path + ": not a JSON profiler trace (the JSON does not parse)");
  const auto events = document.is_object() ? document.find("traceEvents") : document.end();
  if (!document.is_object() || events == document.end() || !events->is_array())
    throw InputError(path + ": not a Chrome / torch.profiler trace (no traceEvents array)");
  trace.base_time_ns = base_time_of(trace, document);
  trace.free_pid = pid_above_all(*events);
  if (keep_document) trace.document = std::move(document);
  return trace;
}

}  // namespace snapscope
