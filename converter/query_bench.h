// `snapscope-convert --bench-queries`: how fast the viewer's live-set queries are on the
// largest device of a converted directory (allocations.json) or of a pickle.
#pragma once

#include <cstdint>
#include <string>

namespace snapscope {

struct QueryLatency {
  uint64_t count = 0;
  double median_ms = 0, p95_ms = 0, max_ms = 0;
};

struct QueryBenchResult {
  std::string source;
  int device = 0;
  uint64_t elements = 0, actions = 0;
  double load_s = 0;   // reading allocations.json, or the pickle plus the derivation
  double build_s = 0;  // Timeline construction
  QueryLatency live_at, allocation_at;
  uint64_t live_total = 0;       // allocations returned by all live_at queries (keeps them honest)
  uint64_t allocation_hits = 0;  // allocation_at queries that found an allocation
};

// Throws InputError for unreadable input or one without any device.
QueryBenchResult run_query_bench(const std::string& path, uint64_t queries, uint64_t seed);
std::string format_query_bench(const QueryBenchResult& result);

}  // namespace snapscope
