// Samples one pixel column of the stacked chart: every pixel row whose centre lies under the
// total is painted by the allocation covering that centre, exactly what rasterising every
// memory_viz polygon without anti-aliasing gives, and exactly what picking (lod_pick) answers.
// One Fenwick descent per distinct allocation met, so a column costs at most its row count
// descents, however many allocations are live.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "core/lod/chart_view.h"
#include "core/lod/run_tracker.h"
#include "core/lod/stack_cursor.h"

namespace snapscope {

// Default colour key: the element index, as memory_viz colours by element; the renderer takes
// it modulo its palette so allocations made one after another always differ in colour.
inline uint32_t default_color_key(uint32_t elem) { return elem; }

// A free's ramp as memory_viz draws it at one x: the freed allocation's bytes [gap_bottom,
// gap_bottom + gap_size) shrink by `slide`, and everything above moves down by `slide`.
struct RampSlide {
  uint32_t freed_position = 0;
  double gap_bottom = 0, gap_size = 0, slide = 0;
};

class RowSampler {
 public:
  // color_keys: per element (may be shorter: the element index is the default key).
  RowSampler(const Timeline& timeline, const std::vector<uint32_t>& color_keys)
      : timeline_(timeline), color_keys_(color_keys) {}

  // Pieces (sorted by stack position) for the rows whose centre lies at or above byte `from`
  // in the cursor's state, ramp applied when given. Rows are those of `view`.
  void sample(const ChartView& view, const StackCursor& cursor, double from, const RampSlide* ramp,
              std::vector<RunPiece>& out) const;

 private:
  struct Hit {
    uint32_t position = 0;
    uint64_t offset = 0, size = 0;
  };
  static std::optional<uint64_t> shown_byte(double centre, const RampSlide* ramp);
  // The live allocation covering `byte`. Rows go up, so the next one usually lies a few live
  // positions above the previous hit: a short scan from there, else a Fenwick descent.
  static Hit locate(const StackCursor& cursor, uint64_t byte, const std::optional<Hit>& previous);
  uint32_t color_of(uint32_t elem) const;

  const Timeline& timeline_;
  const std::vector<uint32_t>& color_keys_;
};

// The first pixel row whose centre lies at or above byte `bytes` (may be < 0 or >= height).
int first_row_at_or_above(const ChartView& view, double bytes);

}  // namespace snapscope
