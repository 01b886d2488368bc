#include "converter/query_bench.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <random>
#include <sstream>
#include <vector>

#include "core/convert/convert.h"
#include "core/snapshot/snapshot_reader.h"
#include "core/store/allocations_json/allocations_json.h"
#include "core/timeline/timeline.h"

namespace snapscope {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// Block replay input of the device with the most elements.
ReplayInput largest_device_input(const std::string& path) {
  const bool is_dir = std::filesystem::is_directory(path);
  const AllocationsFile file = is_dir ? read_allocations_json(allocations_file_in(path).string())
                                      : make_allocations_file(read_snapshot(path));
  if (file.devices.empty()) throw InputError(path + ": no device to benchmark");
  const auto largest = std::max_element(
      file.devices.begin(), file.devices.end(),
      [](const auto& a, const auto& b) { return a.blocks.elements.size() < b.blocks.elements.size(); });
  return largest->blocks;
}

QueryLatency summarize(std::vector<double> samples_ms) {
  QueryLatency latency;
  latency.count = samples_ms.size();
  if (samples_ms.empty()) return latency;
  std::sort(samples_ms.begin(), samples_ms.end());
  const auto at = [&](double q) {
    return samples_ms[static_cast<size_t>(q * static_cast<double>(samples_ms.size() - 1))];
  };
  latency.median_ms = at(0.5);
  latency.p95_ms = at(0.95);
  latency.max_ms = samples_ms.back();
  return latency;
}

template <typename Query>
QueryLatency time_queries(uint64_t count, Query query) {
  std::vector<double> samples;
  samples.reserve(count);
  for (uint64_t i = 0; i < count; ++i) {
    const auto start = Clock::now();
    query();
    samples.push_back(seconds_since(start) * 1e3);
  }
  return summarize(std::move(samples));
}

void print_latency(std::ostream& out, const char* name, const QueryLatency& latency) {
  out << name << "  n=" << latency.count << "  median " << latency.median_ms << " ms  p95 " << latency.p95_ms
      << " ms  max " << latency.max_ms << " ms\n";
}

}  // namespace

QueryBenchResult run_query_bench(const std::string& path, uint64_t queries, uint64_t seed) {
  QueryBenchResult result;
  result.source = path;
  const auto load_start = Clock::now();
  ReplayInput input = largest_device_input(path);
  result.load_s = seconds_since(load_start);
  result.device = input.device;

  const auto build_start = Clock::now();
  const Timeline timeline(std::move(input));
  result.build_s = seconds_since(build_start);
  result.elements = timeline.element_count();
  result.actions = timeline.action_count();

  std::mt19937_64 random(seed);
  std::uniform_int_distribution<size_t> any_state(0, timeline.action_count());
  result.live_at =
      time_queries(queries, [&] { result.live_total += timeline.live_at(any_state(random)).size(); });
  result.allocation_at = time_queries(queries, [&] {
    const size_t state = any_state(random);
    const uint64_t total = timeline.total_at_state(state);
    const uint64_t offset = total == 0 ? 0 : std::uniform_int_distribution<uint64_t>(0, total - 1)(random);
    if (timeline.allocation_at(state, offset)) ++result.allocation_hits;
  });
  return result;
}

std::string format_query_bench(const QueryBenchResult& result) {
  std::ostringstream out;
  out << "source: " << result.source << "\n";
  out << "device " << result.device << ": " << result.elements << " elements, " << result.actions
      << " actions\n";
  out << "load " << result.load_s << " s, timeline build " << result.build_s << " s\n";
  print_latency(out, "live_at      ", result.live_at);
  print_latency(out, "allocation_at", result.allocation_at);
  if (result.live_at.count > 0) {
    out << "mean live set " << result.live_total / result.live_at.count << " allocations per live_at query\n";
  }
  return out.str();
}

}  // namespace snapscope
