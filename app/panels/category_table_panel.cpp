#include "app/panels/category_table_panel.h"

#include "app/widgets/location_text.h"

#include <imgui.h>

#include <algorithm>
#include <map>
#include <string>

#include "app/widgets/table_columns.h"
#include "app/widgets/theme.h"
#include "core/classify/category.h"
#include "core/classify/classifier.h"
#include "core/util/format.h"

namespace snapscope {
namespace {

struct CategoryRow {
  uint64_t bytes = 0, count = 0;
  uint64_t likely = 0;  // inferred, not read off the allocation's own stack or lifetime
  std::map<LocationId, uint64_t> by_location;
  std::map<Reason, uint64_t> by_reason;
};

// Why the row's bytes are this category: each reason and its bytes, largest first.
void reason_tooltip(const CategoryRow& row) {
  std::vector<std::pair<uint64_t, Reason>> reasons;
  for (const auto& [reason, bytes] : row.by_reason) reasons.emplace_back(bytes, reason);
  std::sort(reasons.rbegin(), reasons.rend());
  ImGui::BeginTooltip();
  for (const auto& [bytes, reason] : reasons)
    ImGui::Text("%10s  %s", format_bytes(static_cast<double>(bytes)).c_str(), reason_summary(reason));
  ImGui::EndTooltip();
}

void draw_row(const CategoryNames& names, const std::vector<Rgba>& palette, const CursorAnalysis& shown,
              CategoryId id, const CategoryRow& row) {
  ImGui::TableNextRow();
  ImGui::TableNextColumn();
  theme::color_swatch(palette[id]);
  ImGui::SameLine();
  ImGui::TextUnformatted(std::string(names.name(id)).c_str());
  if (ImGui::IsItemHovered()) reason_tooltip(row);
  ImGui::TableNextColumn();
  ImGui::Text("%s", format_bytes(static_cast<double>(row.bytes)).c_str());
  ImGui::TableNextColumn();
  if (id == category_id(Category::Unknown)) {
    ImGui::TextDisabled("no evidence");
  } else if (row.likely > 0) {
    ImGui::Text("%s", format_bytes(static_cast<double>(row.likely)).c_str());
  } else {
    ImGui::TextDisabled("-");
  }
  ImGui::TableNextColumn();
  ImGui::Text("%.1f%%", shown.moment.live_bytes == 0
                            ? 0.0
                            : 100.0 * double(row.bytes) / double(shown.moment.live_bytes));
  ImGui::TableNextColumn();
  ImGui::Text("%s", format_grouped(row.count).c_str());
  ImGui::TableNextColumn();
  const auto top = std::max_element(row.by_location.begin(), row.by_location.end(),
                                    [](const auto& a, const auto& b) { return a.second < b.second; });
  for (const MomentRow& moment_row : shown.moment.rows) {
    if (top != row.by_location.end() && moment_row.location == top->first) {
      location_text(moment_row.label);
      break;
    }
  }
}

constexpr float kMinLocationWidth = 300;  // "optimizers.py:82 (step)" and its directory's tail

}  // namespace

void draw_category_table(Session& session, const CursorAnalysis* shown) {
  const SessionCategories* categories = session.categories();
  if (categories == nullptr || shown == nullptr || shown->timeline != categories->timeline) {
    ImGui::TextDisabled(categories == nullptr ? "classifying allocations..."
                                              : "place the time cursor (click the chart)");
    return;
  }
  const Classification& classification = categories->classification;
  std::vector<CategoryRow> rows(classification.names.size());
  for (size_t i = 0; i < shown->live.size(); ++i) {
    const uint32_t elem = shown->live[i].elem;
    CategoryRow& row = rows[classification.category(elem)];
    row.bytes += shown->live[i].size;
    ++row.count;
    if (classification.strength(elem) == Strength::Likely) row.likely += shown->live[i].size;
    row.by_reason[classification.reasons[elem]] += shown->live[i].size;
    if (i < shown->live_locations.size()) row.by_location[shown->live_locations[i]] += shown->live[i].size;
  }
  std::vector<CategoryId> order;
  for (size_t id = 0; id < rows.size(); ++id) {
    if (rows[id].count > 0) order.push_back(static_cast<CategoryId>(id));
  }
  std::stable_sort(order.begin(), order.end(),
                   [&](CategoryId a, CategoryId b) { return rows[a].bytes > rows[b].bytes; });
  const std::vector<Rgba> palette = category_palette(classification.names);
  if (ImGui::SmallButton("Copy CSV")) {  // as snapscope-convert --export categories-csv
    const MomentTable table = category_moment_table(shown->live, classification, shown->state);
    ImGui::SetClipboardText(moment_table_csv(table, "category").c_str());
  }
  // A narrow pane scrolls sideways rather than squeezing the location to "...".
  if (!ImGui::BeginTable("categories", 6,
                         ImGuiTableFlags_RowBg | ImGuiTableFlags_Resizable | ImGuiTableFlags_ScrollY |
                             ImGuiTableFlags_ScrollX))
    return;
  const float widths[] = {fit_column_width("Category", "  autograd / workspace"),
                          fit_column_width("Mem", "999.99 MiB"), fit_column_width("Likely", "no evidence"),
                          fit_column_width("Share", "100.0%"), fit_column_width("Count", "9,999,999")};
  float fixed = 0;
  for (const float width : widths) fixed += width;
  ImGui::TableSetupScrollFreeze(1, 1);
  ImGui::TableSetupColumn("Category", ImGuiTableColumnFlags_WidthFixed, widths[0]);
  ImGui::TableSetupColumn("Mem", ImGuiTableColumnFlags_WidthFixed, widths[1]);
  // Of Mem, how much is inferred (sizes matched, a trace ending mid-step): hover a category for why.
  ImGui::TableSetupColumn("Likely", ImGuiTableColumnFlags_WidthFixed, widths[2]);
  ImGui::TableSetupColumn("Share", ImGuiTableColumnFlags_WidthFixed, widths[3]);
  ImGui::TableSetupColumn("Count", ImGuiTableColumnFlags_WidthFixed, widths[4]);
  ImGui::TableSetupColumn("Largest location", ImGuiTableColumnFlags_WidthFixed,
                          std::max(kMinLocationWidth, ImGui::GetContentRegionAvail().x - fixed - 12));
  ImGui::TableHeadersRow();
  for (const CategoryId id : order) draw_row(classification.names, palette, *shown, id, rows[id]);
  ImGui::EndTable();
}

}  // namespace snapscope
