#include "core/util/machine_load.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <limits>
#include <string>
#include <thread>

#include "core/util/usable_cores.h"

namespace snapscope {
namespace {

constexpr int kLooks = 5;
constexpr int64_t kAnswerLastsMs = 1000;

// machine_busy_at()'s kept answer, shared by every thread that starts bulk work.
std::atomic<uint64_t> fresh_looks{0};
std::atomic<int64_t> asked_at_ms{std::numeric_limits<int64_t>::min()};
std::atomic<bool> kept_answer{false};

int64_t steady_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

}  // namespace

long runnable_threads() {
  // "0.52 0.58 0.59 3/467 12345": the fourth field is runnable / all scheduling entities.
  std::ifstream loadavg("/proc/loadavg");
  double averages[3] = {};
  long runnable = -1;
  if (!(loadavg >> averages[0] >> averages[1] >> averages[2] >> runnable)) return -1;
  return runnable;
}

long own_runnable_threads() {
  // Never throws: a thread that ends while its entry is read is simply not counted.
  std::error_code error;
  long running = 0;
  for (std::filesystem::directory_iterator task("/proc/self/task", error), end; !error && task != end;
       task.increment(error)) {
    std::ifstream stat(task->path() / "stat");
    std::string line;
    std::getline(stat, line);
    // "tid (name) S ...": the state follows the name's last ')' (a name may hold one).
    const size_t name_end = line.rfind(')');
    if (name_end != std::string::npos && name_end + 2 < line.size() && line[name_end + 2] == 'R') ++running;
  }
  return running > 0 ? running : -1;  // the calling thread runs: none read means no /proc
}

bool idle_class_may_run(long others, unsigned cores) {
  return others < 0 || others < static_cast<long>(cores);
}

long other_runnable_threads() {
  // Our own threads wake and sleep between the reads: the smaller of two own counts read around
  // the machine's errs toward seeing other processes rather than missing them.
  const long own_before = own_runnable_threads();
  const long all = runnable_threads();
  const long own_after = own_runnable_threads();
  if (all < 0 || own_before < 0 || own_after < 0) return -1;
  return std::max(0L, all - std::min(own_before, own_after));
}

// Most of a few looks a millisecond apart: one look can miss a busy machine when this process's
// threads just woke (that left a panel idle-class beside two busy loops), or see one in a
// moment when the display server draws.
bool machine_busy() {
  const unsigned cores = usable_cores();
  int busy = 0;
  for (int look = 0; look < kLooks; ++look) {
    if (look > 0) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    if (!idle_class_may_run(other_runnable_threads(), cores)) ++busy;
  }
  return 2 * busy > kLooks;
}

bool machine_busy_at(int64_t now_ms) {
  // One answer per second: a cursor move starts bulk tasks (the allocator state, the module
  // tree) that take a few milliseconds, and the machine's load does not change that fast.
  const int64_t asked = asked_at_ms.load(std::memory_order_acquire);
  if (asked != std::numeric_limits<int64_t>::min() && now_ms >= asked && now_ms - asked < kAnswerLastsMs)
    return kept_answer.load(std::memory_order_relaxed);
  const bool busy = machine_busy();  // two threads may both look: harmless
  fresh_looks.fetch_add(1, std::memory_order_relaxed);
  kept_answer.store(busy, std::memory_order_relaxed);
  asked_at_ms.store(now_ms, std::memory_order_release);
  return busy;
}

bool machine_busy_lately() { return machine_busy_at(steady_ms()); }

uint64_t machine_looks_taken() { return fresh_looks.load(std::memory_order_relaxed); }

}  // namespace snapscope
