// Open runs of individually drawn allocations while the builder sweeps left to right: a run
// continues as long as its allocation keeps the same pixel rows, and becomes one rectangle when it
// changes or disappears. Runs are kept sorted by stack position, so when only the stack above
// some position changed, everything below continues untouched: per column the work is the
// changed part of the stack, not the whole visible stack.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "core/lod/instance_collector.h"

namespace snapscope {

struct RunPiece {
  uint32_t position = 0;  // stack position (sort key)
  uint32_t elem = 0;
  uint32_t color_key = 0;
  double bottom = 0, height = 0;  // snapped to pixel rows
};

class RunTracker {
 public:
  explicit RunTracker(InstanceCollector& out) : out_(out) {}

  // From x on, the pieces at positions >= `from` are exactly `fresh` (sorted by position).
  void replace_from(uint32_t from, std::span<const RunPiece> fresh, double x);
  void close_from(uint32_t from, double x);  // ends the runs at positions >= from
  void close_all(double x) { close_from(0, x); }

 private:
  struct Run {
    RunPiece piece;
    double start = 0;
  };
  size_t first_at_or_above(uint32_t position) const;
  void close(const Run& run, double x);

  InstanceCollector& out_;
  std::vector<Run> open_, merged_;
};

}  // namespace snapscope
