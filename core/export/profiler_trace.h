// A torch.profiler (Kineto) trace that a Chrome trace export lines up with (--align-to) or is
// merged into (--merge-into). Current Kineto writes `ts` in µs relative to
// `baseTimeNanoseconds` (a top-level field, ns since the epoch) and uses small integers as `pid`
// (the process id for CPU events, the device index for GPU events); older traces have no base
// (absolute µs). The file is untrusted: bounded in size, and anything but a JSON object with a
// `traceEvents` array is refused with a one-line error naming it.
#pragma once

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

namespace snapscope {

// The largest profiler trace read (its text): Kineto traces of long runs reach hundreds of MB.
inline constexpr uint64_t kMaxProfilerTraceBytes = uint64_t{4} << 30;

struct ProfilerTrace {
  std::string file;
  nlohmann::json document;   // the whole trace (kept only for --merge-into)
  int64_t base_time_ns = 0;  // 0: timestamps are absolute µs
  int64_t free_pid = 0;      // a pid no event of the trace uses: the memory counters' process
};

// Reads `path`; `keep_document` false drops the events once the base time and pids are known.
ProfilerTrace read_profiler_trace(const std::string& path, bool keep_document);

}  // namespace snapscope
