// Min/max pyramid over the memory memory_viz shows during each action
// (max(total before, total after)), answering "highest and lowest memory inside any
// range of steps" in O(log n). It picks each pixel column's representative state for the
// level-of-detail builder and gives the minimap its per-column extents at any zoom.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/timeline/timeline.h"

namespace snapscope {

struct MemoryExtent {
  uint64_t min_bytes = 0;
  uint64_t max_bytes = 0;
  size_t peak_state = 0;  // a state whose total is max_bytes and that is drawn inside the range
};

class MemoryPyramid {
 public:
  explicit MemoryPyramid(const Timeline& timeline);
  // Over other totals of the timeline's states (action_count() + 1 of them, e.g. the private
  // pools view's), which must outlive the pyramid.
  MemoryPyramid(const Timeline& timeline, const std::vector<uint64_t>& state_totals);

  // Actions [first, last] (inclusive); requires first <= last < action_count().
  MemoryExtent over_actions(size_t first, size_t last) const;
  // Timesteps [first, last] (inclusive), clamped to the timeline; requires timesteps() > 0.
  MemoryExtent over_steps(uint64_t first, uint64_t last) const;
  // One extent per pixel column for x in [x0, x1) timesteps (minimap / overview curve).
  std::vector<MemoryExtent> columns(double x0, double x1, int width) const;

  size_t memory_bytes() const;

 private:
  void build();
  uint64_t state_total(size_t state) const {
    return state_totals_ ? (*state_totals_)[state] : timeline_.total_at_state(state);
  }
  uint64_t shown(size_t action) const;  // memory_viz max_at_time during the action's steps
  size_t better(size_t a, size_t b, bool want_max) const;
  size_t node_best(size_t level, size_t node, bool want_max) const;
  size_t scan_best(size_t level, size_t node, bool want_max) const;  // from the timeline

  const Timeline& timeline_;
  const std::vector<uint64_t>* state_totals_ = nullptr;  // null: the timeline's own
  // Levels below kFirstStoredLevel are scanned from the timeline; stored levels hold the
  // action index of the max (or min) of each block of 2^level actions.
  static constexpr size_t kFirstStoredLevel = 4;
  std::vector<Column<uint32_t>> argmax_, argmin_;
};

}  // namespace snapscope
