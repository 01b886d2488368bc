// The pickle reader alone: reads PICKLE ROUNDS times, from the file as the converter does (the
// page cache answers after the first round) and reports MB/s of the fastest and median round,
// with the CPU time split into user and system (page faults show up as system time).
// THREADS (default 0: the product's choice by the usable cores) is ReadOptions::threads; the line for the
// parallel reader says how many chunks its scan found and how many workers' parses were spliced in. Usage:
// bench_reader PICKLE [ROUNDS=5] [THREADS=0]
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "core/snapshot/snapshot_reader.h"

using namespace snapscope;

namespace {

struct Round {
  double wall_s = 0, user_s = 0, system_s = 0;
};

double seconds(const timeval& t) {
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) / 1e6;
}

Round read_once(const std::string& path, unsigned threads, size_t& events, ParallelReadStats& stats) {
  rusage before{}, after{};
  getrusage(RUSAGE_SELF, &before);
  const auto start = std::chrono::steady_clock::now();
  {
    ReadOptions options;
    options.threads = threads;
    options.parallel_stats = &stats;
    const Snapshot snapshot = read_snapshot(path, options);
    events = 0;
    for (const auto& trace : snapshot.device_traces) events += trace.events.size();
  }  // freeing the snapshot is part of a read's cost to the next one, not of this round
  const auto stop = std::chrono::steady_clock::now();
  getrusage(RUSAGE_SELF, &after);
  return {std::chrono::duration<double>(stop - start).count(),
          seconds(after.ru_utime) - seconds(before.ru_utime),
          seconds(after.ru_stime) - seconds(before.ru_stime)};
}

// The last round's CPU split, and what it bounds: the scan and the splicing each run on one
// thread whatever the core count, so the read can go no faster than the slower of them.
void print_scaling(const ParallelReadStats& stats, double mb) {
  const double scanned_mb = static_cast<double>(stats.scanned_bytes) / 1e6;
  std::printf(
      "  last round's CPU: scan %.3f s (%.0f MB/s over %.0f MB), chunk parses %.3f s, merges %.3f s\n",
      stats.scan_cpu_s, stats.scan_cpu_s > 0 ? scanned_mb / stats.scan_cpu_s : 0.0, scanned_mb,
      stats.parse_cpu_s, stats.merge_cpu_s);
  const double serial_s = std::max(stats.scan_cpu_s, stats.merge_cpu_s);
  if (serial_s > 0)
    std::printf("  bound on any core count: %.0f MB/s (the scan or the merges)\n", mb / serial_s);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: bench_reader PICKLE [ROUNDS=5] [THREADS=0]\n");
    return 2;
  }
  const std::string path = argv[1];
  const int rounds = argc > 2 ? std::max(1, std::atoi(argv[2])) : 5;
  const unsigned threads = argc > 3 ? static_cast<unsigned>(std::max(0, std::atoi(argv[3]))) : 0;
  const double mb = static_cast<double>(std::filesystem::file_size(path)) / 1e6;
  std::vector<Round> results;
  size_t events = 0;
  ParallelReadStats stats;
  for (int r = 0; r < rounds; ++r) results.push_back(read_once(path, threads, events, stats));
  std::sort(results.begin(), results.end(),
            [](const Round& a, const Round& b) { return a.wall_s < b.wall_s; });
  const Round& best = results.front();
  const Round& median = results[results.size() / 2];
  std::printf("read %s: %.1f MB, %zu events, %d rounds, %u threads (%s)\n", path.c_str(), mb, events, rounds,
              read_threads_for(static_cast<uint64_t>(mb * 1e6), threads),
              threads == 0 ? "chosen by the usable cores" : "asked");
  std::printf("  parallel reader: %zu chunks found, %zu parsed apart and spliced in (%zu events)\n",
              stats.chunks, stats.spliced, stats.spliced_events);
  if (stats.chunks > 0) print_scaling(stats, mb);
  std::printf("  fastest %.3f s (%.0f MB/s; user %.3f s, system %.3f s)\n", best.wall_s, mb / best.wall_s,
              best.user_s, best.system_s);
  std::printf("  median  %.3f s (%.0f MB/s; user %.3f s, system %.3f s)\n", median.wall_s, mb / median.wall_s,
              median.user_s, median.system_s);
  return 0;
}
