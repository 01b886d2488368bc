#include "core/util/bench_measure.h"

#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>

namespace snapscope {

double process_age_ms() {
  std::ifstream stat_file("/proc/self/stat");
  std::string stat;
  std::getline(stat_file, stat);
  // Field 22, starttime (ticks since boot), counted from field 3, which follows the ") " that
  // ends the command name.
  std::istringstream fields(stat.substr(stat.rfind(')') + 2));
  std::string skipped;
  for (int field = 3; field < 22; ++field) fields >> skipped;
  double start_ticks = 0;
  fields >> start_ticks;
  std::ifstream uptime_file("/proc/uptime");
  double uptime_s = 0;
  uptime_file >> uptime_s;
  return (uptime_s - start_ticks / static_cast<double>(sysconf(_SC_CLK_TCK))) * 1000.0;
}

namespace {

double clock_seconds(clockid_t clock) {
  timespec now{};
  ::clock_gettime(clock, &now);
  return static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) * 1e-9;
}

}  // namespace

double process_cpu_seconds() { return clock_seconds(CLOCK_PROCESS_CPUTIME_ID); }
double thread_cpu_seconds() { return clock_seconds(CLOCK_THREAD_CPUTIME_ID); }

double percentile(std::vector<double> values, double fraction) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  const auto index = static_cast<size_t>(fraction * static_cast<double>(values.size() - 1) + 0.5);
  return values[std::min(index, values.size() - 1)];
}

}  // namespace snapscope
