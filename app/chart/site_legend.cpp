#include "app/chart/site_legend.h"

#include <imgui.h>

#include <algorithm>
#include <string>

#include "app/widgets/location_text.h"
#include "app/widgets/theme.h"
#include "core/util/chart_palette.h"
#include "core/util/format.h"

namespace snapscope {
namespace {
constexpr size_t kShownSites = 8;  // the biggest sites; smaller ones share colors anyway
}

float site_legend_height() { return ImGui::GetTextLineHeightWithSpacing() * (kShownSites + 1); }

void draw_site_legend(Session& session, float width) {
  const SiteColoring& coloring = session.site_coloring();
  ImGui::BeginChild("legend", ImVec2(width, site_legend_height()), false);
  const size_t shown = std::min(kShownSites, coloring.sites.size());
  for (size_t i = 0; i < shown; ++i) {
    const AllocationSite& site = coloring.sites[i];
    const Rgba& color = kDefaultPalette[i % kDefaultPalette.size()];  // the chart's key -> color rule
    theme::color_swatch(color);
    ImGui::SameLine();
    ImGui::Text("%s", format_bytes(static_cast<double>(site.bytes)).c_str());
    ImGui::SameLine();
    const std::string count = "in " + format_count(site.count, "allocation");
    const float label_width = ImGui::GetContentRegionAvail().x - ImGui::CalcTextSize(count.c_str()).x -
                              2 * ImGui::GetStyle().ItemSpacing.x;
    const std::string shown_label = elide_location(site.label, label_width);
    ImGui::TextUnformatted(shown_label.c_str());
    full_text_tooltip(site.label, shown_label);
    ImGui::SameLine();
    ImGui::TextDisabled("%s", count.c_str());
  }
  if (coloring.sites.size() > shown) {
    ImGui::TextDisabled("... %zu more sites (colors repeat)", coloring.sites.size() - shown);
  }
  ImGui::EndChild();
}

}  // namespace snapscope
