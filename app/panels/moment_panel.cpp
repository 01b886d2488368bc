#include "app/panels/moment_panel.h"

#include <imgui.h>

#include <algorithm>
#include <unordered_map>

#include "app/chart/cursor_controls.h"
#include "app/widgets/location_text.h"
#include "app/widgets/table_columns.h"
#include "core/util/format.h"

namespace snapscope {

void MomentPanel::select(Session& session, const CursorAnalysis& analysis, LocationId location) {
  const Timeline* timeline = session.timeline();
  if (timeline == nullptr) return;
  session.highlights.group.assign(timeline->element_count(), analysis.elements_at_location(location));
}

void MomentPanel::draw_toolbar(Session& session, const MomentTable& table, LocationRule& rule) {
  if (ImGui::Button("At peak") && session.timeline() != nullptr) {
    session.cursor_to_peak();
    keep_cursor_in_view(session);
  }
  ImGui::SameLine();
  if (ImGui::Button("Copy text")) ImGui::SetClipboardText(moment_table_text(table).c_str());
  ImGui::SameLine();
  if (ImGui::Button("Copy CSV")) ImGui::SetClipboardText(moment_table_csv(table).c_str());
  ImGui::SameLine();
  bool shown_frame = rule == LocationRule::FirstShownFrame;
  if (ImGui::Checkbox("first shown frame", &shown_frame)) {
    rule = shown_frame ? LocationRule::FirstShownFrame : LocationRule::FirstUserFrame;
  }
  if (ImGui::IsItemHovered()) {
    ImGui::SetTooltip(
        "on: memory_viz's literal rule, the innermost frame the filter keeps\n"
        "off: the innermost user frame, or the autograd node / ATen operator of C++-only stacks");
  }
  ImGui::SameLine();
  uint64_t sum = 0;
  for (const MomentRow& row : table.rows) sum += row.bytes;
  ImGui::Text("%zu locations, rows sum to %s of %s live", table.rows.size(), format_bytes_exact(sum).c_str(),
              format_bytes_exact(table.live_bytes).c_str());
}

void MomentPanel::refresh_categories(const Session& session, const CursorAnalysis& analysis) {
  const SessionCategories* categories = session.categories();
  if (categorised_ == generation_ && categorised_with_ == categories &&
      row_categories_.size() == analysis.moment.rows.size())
    return;
  categorised_ = generation_;
  categorised_with_ = categories;
  row_categories_.assign(analysis.moment.rows.size(), std::string());
  if (categories == nullptr || categories->timeline != analysis.timeline) return;
  const Classification& classification = categories->classification;
  std::unordered_map<LocationId, std::vector<uint64_t>> bytes;  // per location, per category
  for (size_t i = 0; i < analysis.live.size() && i < analysis.live_locations.size(); ++i) {
    std::vector<uint64_t>& row = bytes[analysis.live_locations[i]];
    row.resize(classification.names.size(), 0);
    row[classification.category(analysis.live[i].elem)] += analysis.live[i].size;
  }
  for (size_t r = 0; r < analysis.moment.rows.size(); ++r) {
    const auto found = bytes.find(analysis.moment.rows[r].location);
    if (found == bytes.end()) continue;
    const std::vector<uint64_t>& row = found->second;
    const auto top = std::max_element(row.begin(), row.end());
    const auto others = std::count_if(row.begin(), row.end(), [](uint64_t b) { return b > 0; }) - 1;
    row_categories_[r] = std::string(classification.names.name(static_cast<CategoryId>(top - row.begin()))) +
                         (others > 0 ? " +" + std::to_string(others) : "");
  }
}

void MomentPanel::draw_rows(Session& session, const CursorAnalysis& analysis) {
  const MomentTable& table = analysis.moment;
  refresh_categories(session, analysis);
  const ImGuiTableFlags flags = ImGuiTableFlags_ScrollY | ImGuiTableFlags_RowBg |
                                ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_Resizable;
  if (!ImGui::BeginTable("moment", 6, flags)) return;
  ImGui::TableSetupScrollFreeze(0, 1);
  ImGui::TableSetupColumn("Mem", ImGuiTableColumnFlags_WidthFixed, fit_column_width("Mem", "999.99 MiB"));
  ImGui::TableSetupColumn("Cumulative", ImGuiTableColumnFlags_WidthFixed,
                          fit_column_width("Cumulative", "999.99 MiB"));
  ImGui::TableSetupColumn("Median", ImGuiTableColumnFlags_WidthFixed,
                          fit_column_width("Median", "999.99 MiB"));
  ImGui::TableSetupColumn("Count", ImGuiTableColumnFlags_WidthFixed, fit_column_width("Count", "999,999"));
  ImGui::TableSetupColumn("Category", ImGuiTableColumnFlags_WidthFixed,
                          fit_column_width("Category", "optimizer state +2"));
  ImGui::TableSetupColumn("Location", ImGuiTableColumnFlags_WidthStretch);
  ImGui::TableHeadersRow();
  ImGuiListClipper clipper;
  clipper.Begin(static_cast<int>(table.rows.size()));
  while (clipper.Step()) {
    for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i) {
      const MomentRow& row = table.rows[static_cast<size_t>(i)];
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::PushID(i);
      const bool is_selected = selected_ && *selected_ == row.label;
      if (ImGui::Selectable(format_bytes(static_cast<double>(row.bytes)).c_str(), is_selected,
                            ImGuiSelectableFlags_SpanAllColumns)) {
        selected_ = row.label;
        select(session, analysis, row.location);
      }
      ImGui::PopID();
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(format_bytes(static_cast<double>(row.cumulative)).c_str());
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(format_bytes(static_cast<double>(row.median_size)).c_str());
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(format_grouped(row.count).c_str());
      ImGui::TableNextColumn();
      const std::string& category = row_categories_[static_cast<size_t>(i)];
      ImGui::TextDisabled("%s", category.empty() ? "-" : category.c_str());
      ImGui::TableNextColumn();
      location_text(row.label);
      // The generated file's name changes every run, so it is the tooltip, not the label.
      if (row.compiled && ImGui::IsItemHovered())
        ImGui::SetTooltip("made by torch.compile's generated code:\n%s", row.compiled_frame.c_str());
    }
  }
  ImGui::EndTable();
}

void MomentPanel::draw(Session& session, const CursorAnalysis* analysis, uint64_t generation,
                       LocationRule& rule) {
  if (analysis == nullptr) {
    ImGui::TextDisabled(session.cursor.placed()
                            ? "computing..."
                            : "place the time cursor (click empty chart space, or P for the peak)");
    if (ImGui::Button("At peak") && session.timeline() != nullptr) session.cursor.peak(*session.timeline());
    return;
  }
  if (generation != generation_) {
    generation_ = generation;
    // Keep the selected location highlighted at the new moment.
    if (selected_) {
      for (const MomentRow& row : analysis->moment.rows) {
        if (row.label == *selected_) select(session, *analysis, row.location);
      }
    }
  }
  draw_toolbar(session, analysis->moment, rule);
  draw_rows(session, *analysis);
}

}  // namespace snapscope
