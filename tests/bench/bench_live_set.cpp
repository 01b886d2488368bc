// Timeline::live_at with a large live set: a synthetic block timeline of ACTIONS actions that
// first allocates LIVE elements, then churns (free a random live one, allocate a new one), so
// every state past the start has about LIVE live allocations. Generated snapshots keep only a
// few hundred live; this is the case the viewer's analysis panels hit on long-lived tensors.
// Usage: bench_live_set [ACTIONS=10000000] [LIVE=1000000] [QUERIES=200]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

#include "core/timeline/timeline.h"

using namespace snapscope;

namespace {

double ms_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

ReplayInput churn_input(size_t actions, size_t live, std::mt19937_64& random) {
  ReplayInput input;
  std::vector<uint32_t> live_elems;
  auto alloc = [&](size_t action) {
    const auto elem = static_cast<uint32_t>(input.elements.size());
    ReplayElement element;
    element.addr = 0x7f0000000000 + uint64_t{elem} * 512;
    element.size = 512 + (random() % 64) * 512;
    element.alloc_event = static_cast<EventIndex>(action);
    input.elements.push_back(element);
    input.actions.push_back({elem});
    live_elems.push_back(elem);
  };
  for (size_t action = 0; action < actions; ++action) {
    if (action < live || action % 2 == 0) {
      alloc(action);
      continue;
    }
    const size_t pick = random() % live_elems.size();
    const uint32_t elem = live_elems[pick];
    live_elems[pick] = live_elems.back();
    live_elems.pop_back();
    input.elements[elem].free_event = static_cast<EventIndex>(action);
    input.actions.push_back({elem});
  }
  return input;
}

void report(const char* what, std::vector<double> samples, size_t mean_live) {
  std::sort(samples.begin(), samples.end());
  const auto at = [&](double q) {
    return samples[static_cast<size_t>(q * static_cast<double>(samples.size() - 1))];
  };
  std::printf("%s  n=%zu  median %.2f ms  p95 %.2f ms  max %.2f ms  (mean live set %zu)\n", what,
              samples.size(), at(0.5), at(0.95), samples.back(), mean_live);
}

}  // namespace

int main(int argc, char** argv) {
  const size_t actions = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 10'000'000;
  const size_t live = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 1'000'000;
  const size_t queries = argc > 3 ? std::strtoull(argv[3], nullptr, 10) : 200;
  std::mt19937_64 random(1);

  auto start = std::chrono::steady_clock::now();
  const Timeline timeline(churn_input(actions, live, random));
  std::printf("%zu actions, %zu elements: built in %.0f ms, index %.0f MiB, checkpoint every %zu states\n",
              timeline.action_count(), timeline.element_count(), ms_since(start),
              static_cast<double>(timeline.memory_bytes()) / (1 << 20), timeline.checkpoint_interval());

  std::uniform_int_distribution<size_t> any_state(live, timeline.action_count());
  std::vector<double> samples, reused_samples;
  size_t live_total = 0;
  std::vector<LiveAllocation> buffer;
  for (size_t q = 0; q < queries; ++q) {
    const size_t state = any_state(random);
    start = std::chrono::steady_clock::now();
    live_total += timeline.live_at(state).size();
    samples.push_back(ms_since(start));
    start = std::chrono::steady_clock::now();
    timeline.live_at(state, buffer);
    reused_samples.push_back(ms_since(start));
  }
  report("live_at (new vector)   ", samples, live_total / queries);
  report("live_at (reused vector)", reused_samples, live_total / queries);
  return 0;
}
