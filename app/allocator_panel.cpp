#include "app/allocator_panel.h"

#include <imgui.h>

#include <algorithm>

#include "app/palette.h"
#include "core/allocator/event_text.h"
#include "core/allocator/usage_curve.h"
#include "core/view/format.h"

namespace snapscope {
namespace {

constexpr ImU32 kSegmentFill = IM_COL32(38, 38, 46, 255);  // free space inside a segment
constexpr ImU32 kSegmentEdge = IM_COL32(170, 170, 180, 255);
constexpr ImU32 kPendingColor = IM_COL32(235, 40, 40, 255);
constexpr ImU32 kWasteColor = IM_COL32(255, 120, 120, 150);
constexpr float kMaxRowHeight = 26;
constexpr float kRowFill = 0.8f;  // memory_viz draws segments 4/5 of a row high

uint32_t address_hash(uint64_t addr) {
  const uint64_t mixed = addr * 0x9E3779B97F4A7C15ull;
  return static_cast<uint32_t>(mixed >> 40);
}

}  // namespace

void AllocatorPanel::draw(const AllocatorState& state, const SegmentLayout& layout, int64_t event, double compute_ms) {
  draw_totals(state, layout, event, compute_ms);
  draw_segments(layout);
}

void AllocatorPanel::draw_totals(const AllocatorState& state, const SegmentLayout& layout, int64_t event,
                                 double compute_ms) const {
  const uint64_t reserved = state.reserved_bytes();
  const uint64_t allocated = state.allocated_bytes();
  const std::string where = event < 0 ? std::string("before the first event") : "after event #" + std::to_string(event);
  ImGui::Text("%s: allocated %s of %s reserved (fragmentation %.1f%%)", where.c_str(),
              format_bytes(static_cast<double>(allocated)).c_str(), format_bytes(static_cast<double>(reserved)).c_str(),
              fragmentation_ratio(allocated, reserved) * 100);
  ImGui::Text("%zu segments, %zu blocks, rounding waste %s, pending free %s  (%.1f ms)", state.segments().size(),
              state.blocks().size(),
              format_bytes(static_cast<double>(state.block_bytes() - std::min(state.block_bytes(), allocated))).c_str(),
              format_bytes(static_cast<double>(state.pending_free_bytes())).c_str(), compute_ms);
  if (layout.orphan_blocks > 0) {
    ImGui::TextDisabled("%zu blocks (%s) lie outside every segment of the snapshot", layout.orphan_blocks,
                        format_bytes(static_cast<double>(layout.orphan_bytes)).c_str());
  }
  ImGui::TextColored(ImVec4(0.92f, 0.16f, 0.16f, 1), "pending free");
  ImGui::SameLine();
  ImGui::TextColored(ImVec4(1, 0.47f, 0.47f, 0.8f), "rounding waste");
  ImGui::SameLine();
  ImGui::TextDisabled("dark: free space in a segment");
}

void AllocatorPanel::draw_segments(const SegmentLayout& layout) const {
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  if (layout.rows == 0 || layout.row_width == 0 || avail.x < 4 || avail.y < 4) {
    ImGui::TextDisabled("no segments at this event");
    return;
  }
  const float row_height = std::min(kMaxRowHeight, avail.y / static_cast<float>(layout.rows));
  const float scale = (avail.x - 2) / static_cast<float>(layout.row_width);
  ImDrawList* draw_list = ImGui::GetWindowDrawList();
  const auto rect_x = [&](uint64_t bytes) { return origin.x + static_cast<float>(bytes) * scale; };
  const auto rect_y = [&](size_t row) { return origin.y + static_cast<float>(row) * row_height; };
  for (const PlacedSegment& placed : layout.segments) {
    const float y = rect_y(placed.row);
    draw_list->AddRectFilled(ImVec2(rect_x(placed.x), y), ImVec2(rect_x(placed.x + placed.segment.size) + 0.5f, y + row_height * kRowFill),
                             kSegmentFill);
  }
  for (const PlacedBlock& placed : layout.blocks) {
    const AllocatorBlock& block = placed.block;
    const float y = rect_y(layout.segments[placed.segment].row);
    const float used_right = std::max(rect_x(placed.x + block.requested_size), rect_x(placed.x) + 1);
    const ImU32 color = block.pending_free ? kPendingColor : palette_color(address_hash(block.addr));
    draw_list->AddRectFilled(ImVec2(rect_x(placed.x), y), ImVec2(used_right, y + row_height * kRowFill), color);
    if (block.size > block.requested_size) {
      draw_list->AddRectFilled(ImVec2(used_right, y), ImVec2(rect_x(placed.x + block.size), y + row_height * kRowFill),
                               kWasteColor);
    }
  }
  for (const PlacedSegment& placed : layout.segments) {
    const float y = rect_y(placed.row);
    draw_list->AddRect(ImVec2(rect_x(placed.x), y), ImVec2(rect_x(placed.x + placed.segment.size) + 0.5f, y + row_height * kRowFill),
                       kSegmentEdge);
  }
  ImGui::InvisibleButton("allocator-canvas", ImVec2(avail.x, std::max(1.0f, row_height * static_cast<float>(layout.rows))));
  if (ImGui::IsItemHovered()) draw_tooltip(layout, origin.x, origin.y, scale, row_height);
}

void AllocatorPanel::draw_tooltip(const SegmentLayout& layout, float x0, float y0, float scale, float row_height) const {
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
    if (b.pending_free) ImGui::TextColored(ImVec4(1, 0.4f, 0.4f, 1), "freed, waiting for another stream (active_pending_free)");
  }
  if (segment >= 0) {
    const PlacedSegment& s = layout.segments[static_cast<size_t>(segment)];
    ImGui::Text("segment %s: %s, stream %llu", memviz_address(Action::SegmentAlloc, s.segment.addr).c_str(),
                memviz_size(s.segment.size).c_str(), static_cast<unsigned long long>(s.segment.stream));
    const uint64_t free_bytes = s.free_bytes();
    ImGui::Text("%zu blocks, %s free (%.0f%% of it rounding waste inside blocks)", s.block_count,
                format_bytes(static_cast<double>(free_bytes)).c_str(),
                free_bytes > 0 ? 100.0 * static_cast<double>(s.internal_free) / static_cast<double>(free_bytes) : 0.0);
  }
  ImGui::EndTooltip();
}

}  // namespace snapscope
