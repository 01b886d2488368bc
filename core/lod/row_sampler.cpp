#include "core/lod/row_sampler.h"

#include <algorithm>
#include <cmath>
#include <optional>

namespace snapscope {

int first_row_at_or_above(const ChartView& view, double bytes) {
  const double guess = std::ceil((bytes - view.y0) / view.bytes_per_px() - 0.5);
  auto row = static_cast<int>(std::clamp(guess, -1.0, static_cast<double>(view.height)));
  // Fix the guess with the very expression picking uses, so both agree to the last bit.
  while (row > 0 && view.y_at_row_centre(row - 1) >= bytes) --row;
  while (row < view.height && view.y_at_row_centre(row) < bytes) ++row;
  return std::max(row, 0);
}

uint32_t RowSampler::color_of(uint32_t elem) const {
  return elem < color_keys_.size() ? color_keys_[elem] : default_color_key(elem);
}

// The byte of the state's layout shown at a row centre (centre >= 0), or none inside a ramp's gap
// (the part of the freed allocation already gone). Same arithmetic as pick_at.
std::optional<uint64_t> RowSampler::shown_byte(double centre, const RampSlide* ramp) {
  if (!ramp || centre < ramp->gap_bottom) return static_cast<uint64_t>(centre);
  if (centre < ramp->gap_bottom + ramp->gap_size - ramp->slide) return std::nullopt;
  return static_cast<uint64_t>(centre + ramp->slide);
}

RowSampler::Hit RowSampler::locate(const StackCursor& cursor, uint64_t byte,
                                   const std::optional<Hit>& previous) {
  constexpr uint32_t kScan = 16;  // positions tried above the previous hit before descending
  if (previous && byte >= previous->offset + previous->size) {
    uint64_t offset = previous->offset + previous->size;
    const uint32_t end = std::min<uint32_t>(previous->position + 1 + kScan, cursor.position_count());
    for (uint32_t position = previous->position + 1; position < end; ++position) {
      if (!cursor.is_live(position)) continue;
      const uint64_t size = cursor.size_at(position);
      if (byte < offset + size) return {position, offset, size};
      offset += size;
    }
  }
  const StackCover cover = cursor.covering(byte);
  return {cover.position, cover.bytes_below, cursor.size_at(cover.position)};
}

void RowSampler::sample(const ChartView& view, const StackCursor& cursor, double from, const RampSlide* ramp,
                        std::vector<RunPiece>& out) const {
  out.clear();
  const uint64_t total = timeline_.total_at_state(cursor.state());
  const auto covered_below = [&](int row, uint64_t end) {
    std::optional<uint64_t> byte = shown_byte(view.y_at_row_centre(row), ramp);
    return byte && *byte < end;
  };
  std::optional<Hit> hit;
  for (int row = first_row_at_or_above(view, std::max(from, 0.0)); row < view.height;) {
    const double centre = view.y_at_row_centre(row);
    const std::optional<uint64_t> byte = shown_byte(centre, ramp);
    if (!byte) {
      row = first_row_at_or_above(view, ramp->gap_bottom + ramp->gap_size - ramp->slide);
      continue;
    }
    if (*byte >= total) return;
    hit = locate(cursor, *byte, hit);
    const uint32_t position = hit->position;
    const uint32_t elem = timeline_.element_at_stack_position(position);
    const uint64_t end = hit->offset + hit->size;
    // Jump to the row where the allocation ends, then settle it with the exact test.
    const double shift = static_cast<double>(*byte) - centre;
    int next = std::max(row + 1, first_row_at_or_above(view, static_cast<double>(end) - shift));
    while (next > row + 1 && !covered_below(next - 1, end)) --next;
    while (next < view.height && covered_below(next, end)) ++next;
    const double bottom = view.y0 + row * view.bytes_per_px();
    out.push_back({position, elem, color_of(elem), bottom, (next - row) * view.bytes_per_px()});
    row = next;
  }
}

}  // namespace snapscope
