// ParallelJobs: every job runs, on up to all cores, and the error reported is the first one in
// the order the jobs were added, whichever thread met it first.
#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "core/util/parallel_jobs.h"

using namespace snapscope;

TEST_CASE("parallel jobs: all run, each once") {
  std::vector<std::atomic<int>> runs(50);
  ParallelJobs jobs;
  for (size_t i = 0; i < runs.size(); ++i) jobs.add(i % 7, [&runs, i] { ++runs[i]; });
  jobs.run();
  for (const auto& count : runs) CHECK(count == 1);
}

TEST_CASE("parallel jobs: the first failing job in order is reported, after all have run") {
  std::atomic<int> finished = 0;
  ParallelJobs jobs;
  jobs.add(1, [&] { ++finished; });
  jobs.add(1, [&] {
    // Fails last in time: the report must still name it, as it comes first in order.
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    throw std::runtime_error("second job");
  });
  jobs.add(100, [] { throw std::runtime_error("third job"); });
  jobs.add(1, [&] { ++finished; });
  try {
    jobs.run();
    FAIL("no error");
  } catch (const std::runtime_error& error) {
    CHECK(std::string(error.what()) == "second job");
  }
  CHECK(finished == 2);
}

TEST_CASE("parallel jobs: none is fine") {
  ParallelJobs jobs;
  jobs.run();
}
