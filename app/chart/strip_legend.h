// The key of a strip under the chart (the minimap, the reserved / fragmentation strip): a colour
// swatch and a light label per series, on a dark box so that neither the fill nor the lines
// behind it hide the words.
#pragma once

#include <imgui.h>

#include <span>
#include <string>

namespace snapscope {

struct LegendEntry {
  ImU32 color = 0;
  std::string label;
};

// Draws the key at `origin` (window pixels), entries left to right, dropping the ones that would
// pass `max_width`. Returns the drawn width (0 when nothing fits).
float draw_strip_legend(ImDrawList* draw_list, ImVec2 origin, std::span<const LegendEntry> entries,
                        float max_width);

}  // namespace snapscope
