#include "converter/progress_meter.h"

#include <algorithm>

namespace snapscope {
namespace {

constexpr int kBarWidth = 30;
constexpr double kMegabyte = 1e6;

const char* stage_label(ConvertStage stage) {
  switch (stage) {
    case ConvertStage::Reading:
      return "reading";
    case ConvertStage::Deriving:
      return "building layouts";
    case ConvertStage::Writing:
      return "writing";
    case ConvertStage::Done:
      return "done";
  }
  return "";
}

}  // namespace

std::string ProgressMeter::render(const ConvertProgress& progress, double elapsed_s) {
  const double fraction = progress.bytes_total == 0
                              ? 1.0
                              : std::min(1.0, static_cast<double>(progress.bytes_read) /
                                                  static_cast<double>(progress.bytes_total));
  const int filled = static_cast<int>(fraction * kBarWidth);
  std::string bar(static_cast<size_t>(filled), '#');
  bar.append(static_cast<size_t>(kBarWidth - filled), ' ');
  const double read_mb = static_cast<double>(progress.bytes_read) / kMegabyte;
  const double rate = elapsed_s > 0 ? read_mb / elapsed_s : 0.0;
  char line[200];
  std::snprintf(line, sizeof line, "%-16s [%s] %5.1f%%  %.1f/%.1f MB  %.1f MB/s", stage_label(progress.stage),
                bar.c_str(), fraction * 100.0, read_mb, static_cast<double>(progress.bytes_total) / kMegabyte,
                rate);
  return line;
}

void ProgressMeter::update(const ConvertProgress& progress) {
  const auto now = Clock::now();
  const bool stage_changed = progress.stage != last_stage_;
  if (!stage_changed && now - last_draw_ < std::chrono::milliseconds(100)) return;
  last_draw_ = now;
  last_stage_ = progress.stage;
  // Later stages report no new bytes, so the rate shown stays that of the read phase.
  if (progress.stage == ConvertStage::Reading)
    read_seconds_ = std::chrono::duration<double>(now - start_).count();
  const std::string line = render(progress, read_seconds_);
  const size_t pad = last_width_ > line.size() ? last_width_ - line.size() : 0;
  std::fprintf(out_, "\r%s%*s", line.c_str(), static_cast<int>(pad), "");
  std::fflush(out_);
  last_width_ = line.size();
}

void ProgressMeter::finish() {
  if (last_width_ == 0) return;
  std::fprintf(out_, "\r%*s\r", static_cast<int>(last_width_), "");
  std::fflush(out_);
  last_width_ = 0;
}

}  // namespace snapscope
