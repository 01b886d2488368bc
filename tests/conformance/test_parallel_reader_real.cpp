// The parallel reader (core/snapshot/parallel_reader.h) on every real snapshot, with chunks far
// smaller than it uses, so that each snapshot's trace is spliced in from dozens of them: the
// snapshot must be the one a single thread reads, id for id, and most chunks must really have
// been parsed apart (a reader that always fell back to one thread would pass the first check).
#include <doctest/doctest.h>

#include "core/snapshot/snapshot_reader.h"
#include "real_snapshots.h"
#include "unit/support/snapshot_digest.h"

using namespace snapscope;

namespace {

ReadOptions in_small_chunks(unsigned threads, ParallelReadStats& stats) {
  ReadOptions options;
  ParallelReadOptions parallel;
  parallel.threads = threads;
  parallel.scan.target_bytes = 64 << 10;
  parallel.scan.min_bytes = 4 << 10;
  parallel.unpickler_waits = true;
  options.parallel_for_tests = parallel;
  options.parallel_stats = &stats;
  return options;
}

}  // namespace

TEST_SUITE("conformance") {
  TEST_CASE("the parallel reader reads every real snapshot as one thread does, id for id") {
    for (const auto& path : conformance::snapshot_pickles()) {
      CAPTURE(path.filename().string());
      ReadOptions one_thread;
      one_thread.threads = 1;
      const std::string expected = testing::snapshot_digest(read_snapshot(path.string(), one_thread));
      for (unsigned threads : {2u, 4u}) {
        CAPTURE(threads);
        ParallelReadStats stats;
        const Snapshot parallel = read_snapshot(path.string(), in_small_chunks(threads, stats));
        CHECK(testing::snapshot_digest(parallel) == expected);
        size_t events = 0;
        for (const DeviceTrace& trace : parallel.device_traces) events += trace.events.size();
        // A trace of thousands of entries spans many chunks (the segments' chunks are left to the
        // unpickler: they are no trace entries). Most entries must come from workers; on three
        // snapshots one batch of 1000 is not (not yet explained), hence 3/4 and not all.
        if (events >= 5000) {
          CHECK(stats.spliced >= 5);
          CHECK(stats.spliced_events >= events * 3 / 4);
        }
      }
    }
  }

}  // TEST_SUITE
