#include "app/chart/strip_legend.h"

#include "app/widgets/theme.h"

namespace snapscope {
namespace {

constexpr float kPadding = 3;
constexpr float kSwatchGap = 4;  // between a swatch and its label
constexpr float kEntryGap = 10;  // between one entry and the next
constexpr ImU32 kBox = IM_COL32(12, 12, 16, 215);
constexpr ImU32 kLabel = IM_COL32(235, 235, 240, 255);

}  // namespace

float draw_strip_legend(ImDrawList* draw_list, ImVec2 origin, std::span<const LegendEntry> entries,
                        float max_width) {
  const float line = ImGui::GetTextLineHeight();
  const float swatch = line - 4;
  // Lay out first: the box goes under the entries that fit.
  float width = kPadding;
  size_t shown = 0;
  for (const LegendEntry& entry : entries) {
    const float entry_width = swatch + kSwatchGap + ImGui::CalcTextSize(entry.label.c_str()).x;
    const float next = width + (shown > 0 ? kEntryGap : 0) + entry_width;
    if (next + kPadding > max_width) break;
    width = next;
    ++shown;
  }
  if (shown == 0) return 0;
  width += kPadding;
  draw_list->AddRectFilled(origin, ImVec2(origin.x + width, origin.y + line + 2 * kPadding - 2), kBox, 3);
  float x = origin.x + kPadding;
  for (size_t i = 0; i < shown; ++i) {
    const LegendEntry& entry = entries[i];
    const ImVec2 top(x, origin.y + kPadding);
    draw_list->AddRectFilled(top, ImVec2(top.x + swatch, top.y + swatch), entry.color);
    draw_list->AddRect(top, ImVec2(top.x + swatch, top.y + swatch), theme::kHalo);
    x += swatch + kSwatchGap;
    draw_list->AddText(ImVec2(x, origin.y + kPadding - 2), kLabel, entry.label.c_str());
    x += ImGui::CalcTextSize(entry.label.c_str()).x + kEntryGap;
  }
  return width;
}

}  // namespace snapscope
