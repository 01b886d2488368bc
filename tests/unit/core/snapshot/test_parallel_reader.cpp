// The parallel reader (core/snapshot/parallel_reader.h) on generated snapshots: the same
// snapshot as one thread, id for id, with most of the trace really parsed apart; and for damaged
// input, the same outcome (the same snapshot, or the same error message) as one thread.
#include <doctest/doctest.h>
#include <sched.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <thread>
#include <variant>

#include "core/snapshot/parallel_reader.h"
#include "core/snapshot/snapshot_reader.h"
#include "core/util/usable_cores.h"
#include "unit/support/generated_snapshot.h"
#include "unit/support/snapshot_digest.h"
#include "unit/support/test_store_fixture.h"

using namespace snapscope;

namespace {

ReadOptions one_thread() {
  ReadOptions options;
  options.threads = 1;
  return options;
}

ReadOptions in_small_chunks(ParallelReadStats* stats = nullptr) {
  ReadOptions options;
  ParallelReadOptions parallel;
  parallel.threads = 3;
  parallel.scan.target_bytes = 32 << 10;
  parallel.scan.min_bytes = 4 << 10;
  parallel.unpickler_waits = true;
  options.parallel_for_tests = parallel;
  options.parallel_stats = stats;
  return options;
}

// The digest of what reading `bytes` gives, or "error: " and the message.
std::string outcome(const std::string& bytes, const ReadOptions& options) {
  try {
    return testing::snapshot_digest(read_snapshot_bytes(bytes, "input.pickle", options));
  } catch (const InputError& e) {
    return std::string("error: ") + e.what();
  }
}

std::string generated(uint64_t events) {
  test::TempDir dir;
  test::write_generated(dir / "g.pickle", events, 7);
  return test::read_file(dir / "g.pickle");
}

}  // namespace

TEST_CASE("the parallel reader reads a generated snapshot as one thread does, id for id") {
  const std::string bytes = generated(20000);
  ParallelReadStats stats;
  const Snapshot parallel = read_snapshot_bytes(bytes, "g.pickle", in_small_chunks(&stats));
  CHECK(testing::snapshot_digest(parallel) == outcome(bytes, one_thread()));
  CHECK(parallel.device_traces.at(0).events.size() >= 20000);  // the generator adds a few
  CHECK(stats.spliced >= 10);
  CHECK(stats.spliced_events >= 15000);
  CHECK(stats.scanned_bytes + 1 == bytes.size());  // to the STOP that ends the pickle
  CHECK(stats.scan_cpu_s > 0);
  CHECK(stats.parse_cpu_s > 0);
  CHECK(stats.merge_cpu_s > 0);
}

TEST_CASE("a mapped file's chunks are scanned and parsed in place, as one thread reads it") {
  test::TempDir dir;
  test::write_generated(dir / "g.pickle", 20000, 7);
  ParallelReadStats stats;
  const Snapshot parallel = read_snapshot((dir / "g.pickle").string(), in_small_chunks(&stats));
  CHECK(testing::snapshot_digest(parallel) == outcome(test::read_file(dir / "g.pickle"), one_thread()));
  CHECK(stats.spliced >= 10);
  CHECK(stats.scanned_bytes + 1 == std::filesystem::file_size(dir / "g.pickle"));
}

TEST_CASE("damaged input reads the same in parallel as on one thread: the same snapshot or the same error") {
  const std::string bytes = generated(6000);
  int errors = 0;
  for (size_t k = 1; k < 40; ++k) {
    std::string damaged = bytes;
    const size_t at = bytes.size() * k / 40;
    damaged[at] = static_cast<char>(damaged[at] ^ (k % 2 ? 0xFF : 0x21));
    CAPTURE(at);
    const std::string expected = outcome(damaged, one_thread());
    errors += expected.starts_with("error: ");
    CHECK(outcome(damaged, in_small_chunks()) == expected);
  }
  CHECK(errors >= 10);  // the damage must reach the parser, not only payloads
}

TEST_CASE(
    "the automatic thread count: every usable core from 4 up, at most 16; one below, or for small inputs") {
  const uint64_t big = uint64_t{1} << 30;
  const unsigned cores = usable_cores();
  CHECK(read_threads_for(big, 0) == (cores >= 4 ? std::min(cores, 16u) : 1u));
  CHECK(read_threads_for(1 << 20, 0) == 1);
  CHECK(read_threads_for(1 << 20, 8) == 1);
  CHECK(read_threads_for(big, 3) == 3);
  CHECK(read_threads_for(big, 1000) == 64);
}

namespace {

// read_threads_for(1 GB, 0) in a thread allowed onto the first `count` of the CPUs this process
// may use (the test's own mask is left as it was); 0 when there are fewer.
unsigned automatic_threads_on(int count) {
  unsigned threads = 0;
  std::thread([&] {
    cpu_set_t allowed, some;
    CPU_ZERO(&allowed);
    CPU_ZERO(&some);
    if (sched_getaffinity(0, sizeof allowed, &allowed) != 0) return;
    int taken = 0;
    for (int cpu = 0; cpu < CPU_SETSIZE && taken < count; ++cpu) {
      if (CPU_ISSET(cpu, &allowed)) {
        CPU_SET(cpu, &some);
        ++taken;
      }
    }
    if (taken == count && sched_setaffinity(0, sizeof some, &some) == 0)
      threads = read_threads_for(uint64_t{1} << 30, 0);
  }).join();
  return threads;
}

}  // namespace

TEST_CASE("the automatic thread count follows the CPUs the process may run on") {
  CHECK(automatic_threads_on(1) == 1);
  if (usable_cores() >= 2) CHECK(automatic_threads_on(2) == 1);
  if (usable_cores() >= 4) CHECK(automatic_threads_on(4) == 4);  // not on a 2-core machine
}
