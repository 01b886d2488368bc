// The strip under the chart: reserved memory (segment timeline; the column's highest value),
// allocated memory (block timeline), and the fragmentation ratio 1 - allocated / reserved, per
// pixel column of the visible range, plus the OOM markers drawn over the chart.
#pragma once

#include <vector>

#include "core/allocator/allocator_history.h"
#include "core/allocator/usage_curve.h"
#include "core/session/session.h"

namespace snapscope {

class ReservedCurve {
 public:
  void draw(const Session& session, const UsageCurve& usage, const Timeline& timeline, float x_offset,
            float width, float height);
  void reset() { timeline_ = nullptr; }

 private:
  void update(const UsageCurve& usage, const Timeline& timeline, const std::vector<double>& edges);
  void draw_tooltip(float x, float width) const;

  const Timeline* timeline_ = nullptr;
  std::vector<double> edges_;
  std::vector<UsageColumn> columns_;  // cached while the view and width stay the same
  uint64_t top_ = 1;
};

// Red vertical lines at OOM events, with requested size and free device memory in a tooltip.
void draw_oom_lines(const Session& session, const Timeline& timeline, const std::vector<OomEvent>& ooms,
                    float x, float y, float width, float height);

}  // namespace snapscope
