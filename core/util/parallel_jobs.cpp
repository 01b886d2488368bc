#include "core/util/parallel_jobs.h"

#include <algorithm>
#include <thread>

#include "core/util/usable_cores.h"

namespace snapscope {
namespace {

constexpr size_t kMaxThreads = 8;

}  // namespace

void ParallelJobs::add(size_t weight, std::function<void()> job) {
  jobs_.push_back({weight, std::move(job), nullptr});
}

std::vector<std::vector<ParallelJobs::Job*>> ParallelJobs::share_out(size_t workers) {
  std::vector<Job*> order;
  for (Job& job : jobs_) order.push_back(&job);
  std::stable_sort(order.begin(), order.end(),
                   [](const Job* a, const Job* b) { return a->weight > b->weight; });
  std::vector<std::vector<Job*>> shares(workers);
  std::vector<size_t> load(workers, 0);
  for (Job* job : order) {
    const auto lightest = static_cast<size_t>(std::min_element(load.begin(), load.end()) - load.begin());
    shares[lightest].push_back(job);
    load[lightest] += job->weight;
  }
  return shares;
}

void ParallelJobs::run() {
  const size_t cores = std::clamp<size_t>(usable_cores(), 1, kMaxThreads);
  const auto shares = share_out(std::min(cores, std::max<size_t>(jobs_.size(), 1)));
  const auto run_share = [](const std::vector<Job*>& share) {
    for (Job* job : share) {
      try {
        job->work();
      } catch (...) {
        job->error = std::current_exception();
      }
    }
  };
  {
    std::vector<std::jthread> threads;  // joined before the errors are looked at
    for (size_t i = 1; i < shares.size(); ++i) threads.emplace_back(run_share, std::cref(shares[i]));
    run_share(shares[0]);
  }
  for (const Job& job : jobs_) {
    if (job.error) std::rethrow_exception(job.error);
  }
}

}  // namespace snapscope
