#include "app/panels/allocator_state_panel.h"

#include <imgui.h>

#include <algorithm>
#include <iterator>

#include "app/widgets/theme.h"
#include "core/allocator/event_text.h"
#include "core/allocator/usage_curve.h"
#include "core/util/format.h"
#include "core/view/allocation_details.h"

namespace snapscope {
namespace {

constexpr float kMaxRowHeight = 26;
constexpr float kMinRowHeight = 9;
constexpr float kMinOutlinePixels = 3;  // thinner shapes get no outline: it would hide their fill
// Block colors (memory_viz colors each block version differently); none is red or gray.
constexpr float kRowFill = 0.8f;  // memory_viz draws segments 4/5 of a row high

uint32_t address_hash(uint64_t addr) {
  const uint64_t mixed = addr * 0x9E3779B97F4A7C15ull;
  return static_cast<uint32_t>(mixed >> 40);
}

}  // namespace

void AllocatorStatePanel::draw(const AllocatorState& state, const SegmentLayout& layout, int64_t event,
                               double compute_ms) {
  draw_totals(state, layout, event, compute_ms);
  draw_segments(layout);
}

void AllocatorStatePanel::draw_totals(const AllocatorState& state, const SegmentLayout& layout, int64_t event,
                                      double compute_ms) const {
  const uint64_t reserved = state.reserved_bytes();
  const uint64_t allocated = state.allocated_bytes();
  const std::string where =
      event < 0 ? std::string("before the first event") : "after event #" + std::to_string(event);
  // Wrapped, not clipped: the pane can be narrow.
  ImGui::TextWrapped("%s: allocated %s of %s reserved (fragmentation %.1f%%)", where.c_str(),
                     format_bytes(static_cast<double>(allocated)).c_str(),
                     format_bytes(static_cast<double>(reserved)).c_str(),
                     fragmentation_ratio(allocated, reserved) * 100);
  ImGui::TextWrapped(
      "%zu segments, %zu blocks, rounding waste %s, pending free %s  (%.1f ms)", state.segments().size(),
      state.blocks().size(),
      format_bytes(static_cast<double>(state.block_bytes() - std::min(state.block_bytes(), allocated)))
          .c_str(),
      format_bytes(static_cast<double>(state.pending_free_bytes())).c_str(), compute_ms);
  if (layout.orphan_blocks > 0) {
    ImGui::TextDisabled("%zu blocks (%s) lie outside every segment of the snapshot", layout.orphan_blocks,
                        format_bytes(static_cast<double>(layout.orphan_bytes)).c_str());
  }
  ImGui::TextColored(theme::kPendingFreeText, "pending free");
  ImGui::SameLine();
  ImGui::TextColored(theme::kWasteText, "rounding waste");
  ImGui::SameLine();
  ImGui::TextDisabled("dark: free space in a segment");
}

void AllocatorStatePanel::draw_segments(const SegmentLayout& layout) const {
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  if (layout.rows == 0 || layout.row_width == 0 || avail.x < 4 || avail.y < 4) {
    ImGui::TextDisabled("no segments at this event");
    return;
  }
  // Rows stay readable (memory_viz zooms its SVG instead): many rows scroll, only visible ones are drawn.
  const float row_height =
      std::clamp(avail.y / static_cast<float>(layout.rows), kMinRowHeight, kMaxRowHeight);
  ImGui::BeginChild("allocator-canvas", avail, false);
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const float scale = (ImGui::GetContentRegionAvail().x - 2) / static_cast<float>(layout.row_width);
  const float scroll = ImGui::GetScrollY();
  const auto first_row = static_cast<size_t>(scroll / row_height);
  const auto last_row = static_cast<size_t>((scroll + avail.y) / row_height) + 1;
  const auto visible = [&](size_t row) { return row >= first_row && row <= last_row; };
  ImDrawList* draw_list = ImGui::GetWindowDrawList();
  const auto px = [&](uint64_t bytes) { return origin.x + static_cast<float>(bytes) * scale; };
  const auto top = [&](size_t row) { return origin.y + static_cast<float>(row) * row_height; };
  const float bar = row_height * kRowFill;
  for (const PlacedSegment& placed : layout.segments) {
    if (!visible(placed.row)) continue;
    const float y = top(placed.row);
    draw_list->AddRectFilled(ImVec2(px(placed.x), y),
                             ImVec2(std::max(px(placed.x + placed.segment.size), px(placed.x) + 1), y + bar),
                             theme::kSegmentFill);
  }
  for (const PlacedBlock& placed : layout.blocks) {
    const size_t row = layout.segments[placed.segment].row;
    if (!visible(row)) continue;
    const AllocatorBlock& block = placed.block;
    const float y = top(row);
    const float left = px(placed.x);
    const float used_right = std::max(px(placed.x + block.requested_size), left + 1);
    const ImU32 color = block.pending_free
                            ? theme::kPendingFree
                            : theme::kBlockColors[address_hash(block.addr) % std::size(theme::kBlockColors)];
    draw_list->AddRectFilled(ImVec2(left, y), ImVec2(used_right, y + bar), color);
    if (block.size > block.requested_size)
      draw_list->AddRectFilled(ImVec2(used_right, y), ImVec2(px(placed.x + block.size), y + bar),
                               theme::kWaste);
    if (used_right - left >= kMinOutlinePixels)
      draw_list->AddLine(ImVec2(left, y), ImVec2(left, y + bar), theme::kBlockEdge);
  }
  for (const PlacedSegment& placed : layout.segments) {
    if (!visible(placed.row) || px(placed.x + placed.segment.size) - px(placed.x) < kMinOutlinePixels)
      continue;
    const float y = top(placed.row);
    draw_list->AddRect(ImVec2(px(placed.x), y), ImVec2(px(placed.x + placed.segment.size), y + bar),
                       theme::kSegmentEdge);
  }
  ImGui::InvisibleButton("allocator-rows",
                         ImVec2(std::max(1.0f, avail.x - 16), row_height * static_cast<float>(layout.rows)));
  if (ImGui::IsItemHovered()) draw_tooltip(layout, origin.x, origin.y, scale, row_height);
  ImGui::EndChild();
}

void AllocatorStatePanel::draw_tooltip(const SegmentLayout& layout, float x0, float y0, float scale,
                                       float row_height) const {
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  if (mouse.y < y0 || mouse.x < x0) return;
  const auto row = static_cast<size_t>((mouse.y - y0) / row_height);
  const auto x = static_cast<uint64_t>((mouse.x - x0) / scale);
  const long block = block_at(layout, row, x);
  const long segment = segment_at(layout, row, x);
  if (block < 0 && segment < 0) return;
  ImGui::BeginTooltip();
  if (block >= 0) {
    const AllocatorBlock& b = layout.blocks[static_cast<size_t>(block)].block;
    ImGui::Text("block %s: %s", memviz_address(Action::Alloc, b.addr).c_str(), memviz_size(b.size).c_str());
    ImGui::Text("requested %s, rounding waste %s", memviz_size(b.requested_size).c_str(),
                format_bytes(static_cast<double>(b.size - std::min(b.size, b.requested_size))).c_str());
    if (b.pending_free)
      ImGui::TextColored(theme::kAlertText, "freed, waiting for another stream (active_pending_free)");
  }
  if (segment >= 0) {
    const PlacedSegment& s = layout.segments[static_cast<size_t>(segment)];
    ImGui::Text("segment %s: %s, stream %llu", memviz_address(Action::SegmentAlloc, s.segment.addr).c_str(),
                memviz_size(s.segment.size).c_str(), static_cast<unsigned long long>(s.segment.stream));
    if (s.pool) ImGui::Text("private pool %s (CUDA graph / MemPool)", pool_text(*s.pool).c_str());
    const uint64_t free_bytes = s.free_bytes();
    ImGui::Text("%zu blocks, %s free (%.0f%% of it rounding waste inside blocks)", s.block_count,
                format_bytes(static_cast<double>(free_bytes)).c_str(),
                free_bytes > 0
                    ? 100.0 * static_cast<double>(s.internal_free) / static_cast<double>(free_bytes)
                    : 0.0);
  }
  ImGui::EndTooltip();
}

}  // namespace snapscope
