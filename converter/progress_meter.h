// The converter's progress line on stderr ("reading [####    ] 45%  452/1000 MB  210 MB/s").
// Only used when stderr is a terminal; redraws at most ~10 times a second.
#pragma once

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>

#include "core/convert/convert.h"

namespace snapscope {

class ProgressMeter {
 public:
  explicit ProgressMeter(std::FILE* out) : out_(out), start_(Clock::now()) {}
  void update(const ConvertProgress& progress);
  void finish();  // erases the line

  // One progress line, without the leading carriage return. `elapsed_s` > 0 gives a rate.
  static std::string render(const ConvertProgress& progress, double elapsed_s);

 private:
  using Clock = std::chrono::steady_clock;
  std::FILE* out_;
  Clock::time_point start_;
  Clock::time_point last_draw_{};
  ConvertStage last_stage_ = ConvertStage::Reading;
  size_t last_width_ = 0;
  double read_seconds_ = 0;
};

}  // namespace snapscope
