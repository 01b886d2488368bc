#include "app/location_text.h"

#include <imgui.h>

namespace snapscope {

std::string elide_front(const std::string& text, float width) {
  if (ImGui::CalcTextSize(text.c_str()).x <= width) return text;
  const std::string dots = "...";
  const float budget = width - ImGui::CalcTextSize(dots.c_str()).x;
  // Keep the longest tail that fits: binary search over where the tail starts.
  size_t low = 0, high = text.size();
  while (low < high) {
    const size_t mid = (low + high) / 2;
    if (ImGui::CalcTextSize(text.c_str() + mid).x <= budget) {
      high = mid;
    } else {
      low = mid + 1;
    }
  }
  while (low < text.size() && (static_cast<unsigned char>(text[low]) & 0xC0) == 0x80) ++low;  // whole UTF-8
  return dots + text.substr(low);
}

void full_text_tooltip(const std::string& text, const std::string& shown) {
  if (shown != text && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", text.c_str());
}

void location_text(const std::string& text) {
  const std::string shown = elide_front(text, ImGui::GetContentRegionAvail().x);
  ImGui::TextUnformatted(shown.c_str());
  full_text_tooltip(text, shown);
}

}  // namespace snapscope
