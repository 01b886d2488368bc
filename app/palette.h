// Colors of the chart, shared by the chart and its legend.
#pragma once

#include <imgui.h>

#include <cstdint>
#include <iterator>

namespace snapscope {

// A categorical palette; keys wrap around it so neighbours in allocation order differ.
inline constexpr ImU32 kPalette[] = {
    IM_COL32(31, 119, 180, 255),  IM_COL32(255, 127, 14, 255), IM_COL32(44, 160, 44, 255),
    IM_COL32(214, 39, 40, 255),   IM_COL32(148, 103, 189, 255), IM_COL32(140, 86, 75, 255),
    IM_COL32(227, 119, 194, 255), IM_COL32(127, 127, 127, 255), IM_COL32(188, 189, 34, 255),
    IM_COL32(23, 190, 207, 255)};
inline constexpr ImU32 kAggregateColor = IM_COL32(90, 90, 100, 255);

inline ImU32 palette_color(uint32_t key) { return kPalette[key % std::size(kPalette)]; }

}  // namespace snapscope
