#include "app/widgets/location_text.h"

#include <imgui.h>

#include <cctype>

namespace snapscope {

namespace {

constexpr const char* kDots = "...";

float text_width(const std::string& text, size_t from = 0) {
  return ImGui::CalcTextSize(text.c_str() + from).x;
}

// Where the file name starts: after the last '/' or '\\' of the part before ":LINE" (npos:
// the text names no file, e.g. "BmmBackward0" or "untraced / pre-existing").
size_t file_name_start(const std::string& text) {
  size_t line_colon = std::string::npos;
  for (size_t colon = text.find(':'); colon != std::string::npos; colon = text.find(':', colon + 1)) {
    if (colon + 1 < text.size() && std::isdigit(static_cast<unsigned char>(text[colon + 1])))
      line_colon = colon;
  }
  if (line_colon == std::string::npos) return std::string::npos;
  const size_t slash = text.find_last_of("/\\", line_colon);
  return slash == std::string::npos ? std::string::npos : slash + 1;
}

}  // namespace

std::string elide_back(const std::string& text, float width) {
  if (text_width(text) <= width) return text;
  const float budget = width - text_width(kDots);
  if (budget < 0) return {};
  size_t low = 0, high = text.size();  // the longest head that fits
  while (low < high) {
    const size_t mid = (low + high + 1) / 2;
    if (ImGui::CalcTextSize(text.c_str(), text.c_str() + mid).x <= budget) {
      low = mid;
    } else {
      high = mid - 1;
    }
  }
  while (low > 0 && (static_cast<unsigned char>(text[low]) & 0xC0) == 0x80) --low;  // whole UTF-8
  return text.substr(0, low) + kDots;
}

std::string elide_location(const std::string& text, float width) {
  if (text_width(text) <= width) return text;
  const size_t file = file_name_start(text);
  if (file == std::string::npos) return elide_back(text, width);
  // Drop whole directories from the left while the rest does not fit.
  const float budget = width - text_width(kDots);
  for (size_t from = text.find_first_of("/\\"); from != std::string::npos && from < file;
       from = text.find_first_of("/\\", from + 1)) {
    if (text_width(text, from) <= budget) return kDots + text.substr(from);
  }
  return elide_back(text.substr(file), width);  // the file name first, cut at the right
}

void full_text_tooltip(const std::string& text, const std::string& shown) {
  if (shown != text && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", text.c_str());
}

void location_text(const std::string& text) {
  const std::string shown = elide_location(text, ImGui::GetContentRegionAvail().x);
  ImGui::TextUnformatted(shown.c_str());
  full_text_tooltip(text, shown);
}

}  // namespace snapscope
