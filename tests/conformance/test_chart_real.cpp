// The chart at the default (fit) view of real training snapshots: every pixel under the total
// curve is an allocation that covers that point, drawing and picking agree, and the area under
// the curve shows many distinct allocations (memory_viz's striations), not one fill.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <optional>
#include <set>
#include <string>

#include "core/lod/key_raster.h"
#include "core/lod/lod_builder.h"
#include "core/lod/lod_pick.h"
#include "core/snapshot/snapshot_reader.h"
#include "core/timeline/timeline.h"
#include "real_snapshots.h"

using namespace snapscope;
namespace fs = std::filesystem;
using namespace snapscope::conformance;

namespace {

constexpr int kWidth = 1200, kHeight = 700;  // about the chart area of a 1920x1080 window

// What the viewer opens at: all steps, 0 to 5% above the peak.
ChartView fit_view(const Timeline& timeline) {
  return {0.0,    static_cast<double>(timeline.timesteps()),
          0.0,    static_cast<double>(timeline.peak_bytes()) * 1.05,
          kWidth, kHeight};
}

struct GridResult {
  size_t points = 0, covered = 0, drawn_as_picked = 0;
  std::set<uint32_t> elems, colours;
};

// The state a pixel column shows, when it shows one state throughout (not a free's ramp).
std::optional<size_t> shown_state(const Timeline& timeline, const LodFrame& frame, int px) {
  if (frame.mode == LodMode::Columns) {
    const uint32_t state = frame.columns[static_cast<size_t>(px)].state;
    return state == kNoIndex ? std::nullopt : std::optional<size_t>(state);
  }
  const double x = frame.view.x_at_pixel_centre(px);
  if (x < 0 || x >= static_cast<double>(timeline.timesteps())) return std::nullopt;
  const size_t action = timeline.action_at_step(static_cast<uint64_t>(x));
  if (!timeline.action_is_free(action)) return action + 1;
  if (x < static_cast<double>(timeline.step_begin(action)) + 1.0) return action;
  return std::nullopt;
}

// A grid of points under the total curve (every 6th column, every 4th row).
GridResult check_grid(const Timeline& timeline, const LodFrame& frame) {
  const std::vector<uint32_t> keys = rasterize_keys(frame);
  REQUIRE(keys.size() == static_cast<size_t>(kWidth) * kHeight);
  const ChartView& view = frame.view;
  GridResult result;
  for (int px = 0; px < kWidth; px += 6) {
    const std::optional<size_t> state = shown_state(timeline, frame, px);
    if (!state) continue;
    for (int row = 0; row < kHeight; row += 4) {
      const double byte = view.y_at_row_centre(row);
      if (byte >= static_cast<double>(timeline.total_at_state(*state))) break;
      ++result.points;
      const PickResult pick = pick_at(timeline, frame, px + 0.5, kHeight - 1 - row + 0.5);
      if (pick.kind != PickKind::Allocation) continue;
      const uint64_t offset = timeline.offset_of(pick.elem, *state);
      const bool live = timeline.alloc_state(pick.elem) <= *state && *state < timeline.free_state(pick.elem);
      const auto at = static_cast<uint64_t>(byte);
      result.covered += live && offset <= at && at < offset + timeline.element(pick.elem).size;
      result.drawn_as_picked +=
          keys[static_cast<size_t>(row) * kWidth + static_cast<size_t>(px)] == pick.elem;
      result.elems.insert(pick.elem);
      result.colours.insert(default_color_key(pick.elem) % 16);
    }
  }
  return result;
}

}  // namespace

TEST_SUITE("conformance") {
  TEST_CASE("real snapshots: at the fit view every point under the curve is an allocation covering it") {
    for (const fs::path& pickle : snapshot_pickles()) {
      CAPTURE(pickle.filename().string());
      const Snapshot snapshot = read_snapshot(pickle.string());
      for (int device : snapshot.devices()) {
        CAPTURE(device);
        const Timeline timeline(derive_replay_input(snapshot, device, TimelineKind::Blocks));
        if (timeline.timesteps() == 0 || timeline.peak_bytes() == 0) continue;
        LodBuilder builder(timeline);
        const LodFrame frame = builder.build(fit_view(timeline));
        const GridResult grid = check_grid(timeline, frame);
        REQUIRE(grid.points > 0);
        INFO(grid.covered << " of " << grid.points << " points covered, " << grid.elems.size()
                          << " distinct allocations");
        CHECK(static_cast<double>(grid.covered) >= 0.95 * static_cast<double>(grid.points));
        CHECK(grid.drawn_as_picked == grid.covered);
        // Many allocations show, not one fill: at least a tenth of those ever live (up to 50),
        // in at least half the palette once there are enough of them.
        const size_t ever_live = timeline.stack_size();
        CHECK(grid.elems.size() >= std::min<size_t>(50, std::max<size_t>(1, ever_live / 10)));
        if (grid.elems.size() >= 32) CHECK(grid.colours.size() >= 8);
      }
    }
  }
}
