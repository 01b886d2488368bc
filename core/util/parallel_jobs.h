// Independent jobs spread over the machine's cores: longest first onto the least loaded thread
// (close to even for a handful of big jobs), each thread running its share in order. The
// error reported is the first failing job's in the order they were added, so a message does
// not depend on timing.
#pragma once

#include <cstddef>
#include <exception>
#include <functional>
#include <vector>

namespace snapscope {

class ParallelJobs {
 public:
  // `weight`: the job's expected work, in any unit shared by all jobs.
  void add(size_t weight, std::function<void()> job);
  // Runs every job (also after one failed), then rethrows the first failure in job order.
  void run();

 private:
  struct Job {
    size_t weight = 0;
    std::function<void()> work;
    std::exception_ptr error;
  };
  std::vector<std::vector<Job*>> share_out(size_t workers);

  std::vector<Job> jobs_;
};

}  // namespace snapscope
