#include "core/util/stage_log.h"

#include <cstdio>
#include <fstream>
#include <string_view>

namespace snapscope {

uint64_t peak_rss_bytes() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (std::string_view(line).starts_with("VmHWM:")) return std::stoull(line.substr(6)) * 1024;
  }
  return 0;
}

void StageLog::record(std::string name, Clock::time_point start) {
  const auto seconds = [this](Clock::time_point t) {
    return std::chrono::duration<double>(t - origin_).count();
  };
  const Clock::time_point end = Clock::now();
  const uint64_t peak = peak_rss_bytes();
  const std::lock_guard lock(mutex_);  // restart() may move origin_
  entries_.push_back(Entry{std::move(name), seconds(start), seconds(end), peak});
}

std::vector<StageLog::Entry> StageLog::entries() const {
  const std::lock_guard lock(mutex_);
  return entries_;
}

void StageLog::restart() {
  const std::lock_guard lock(mutex_);
  entries_.clear();
  origin_ = Clock::now();
}

std::string StageLog::format() const {
  std::string out;
  char line[160];
  for (const Entry& e : entries()) {
    std::snprintf(line, sizeof line, "%-28s %7.2f s  [%6.2f .. %6.2f]  peak RSS %6.0f MB\n", e.name.c_str(),
                  e.end_s - e.start_s, e.start_s, e.end_s, static_cast<double>(e.peak_rss_bytes) / 1e6);
    out += line;
  }
  return out;
}

}  // namespace snapscope
