#include "app/compare/rank_table_panel.h"

#include <imgui.h>

#include <algorithm>
#include <filesystem>
#include <stdexcept>

#include "app/widgets/table_columns.h"
#include "app/widgets/theme.h"
#include "core/document/rank_set.h"
#include "core/util/format.h"

namespace snapscope {
namespace {

constexpr double kOutlierPercent = 10;

std::vector<float> curve_points(const std::vector<uint64_t>& curve) {
  std::vector<float> points;
  points.reserve(curve.size());
  for (const uint64_t bytes : curve) points.push_back(static_cast<float>(bytes));
  return points;
}

}  // namespace

void RankTablePanel::load(const std::string& directory, int device) {
  directory_ = directory;
  ticked_.clear();
  table_.start([directory, device](const std::atomic<bool>& cancelled) {
    return std::make_shared<const RankTable>(
        load_rank_table(expand_rank_inputs({directory}), device, kOutlierPercent, &cancelled));
  });
}

void RankTablePanel::open_rank(AppState& app, size_t rank) const {
  const RankTable* shown = table();
  if (shown == nullptr || rank >= shown->rows.size())
    throw std::runtime_error("no rank " + std::to_string(rank));
  app.open(shown->rows[rank].summary.file);
}

void RankTablePanel::compare_ranks(AppState& app, size_t a, size_t b) const {
  const RankTable* shown = table();
  if (shown == nullptr || a >= shown->rows.size() || b >= shown->rows.size())
    throw std::runtime_error("no ranks " + std::to_string(a) + " and " + std::to_string(b));
  app.open(shown->rows[a].summary.file);
  app.open_compare(shown->rows[b].summary.file);
}

void RankTablePanel::draw_row(AppState& app, size_t index, const RankRow& row) {
  const RankSummary& rank = row.summary;
  ImGui::TableNextRow();
  ImGui::PushID(static_cast<int>(index));
  ImGui::TableNextColumn();
  bool ticked = std::find(ticked_.begin(), ticked_.end(), index) != ticked_.end();
  if (ImGui::Checkbox("##pick", &ticked)) {
    std::erase(ticked_, index);
    if (ticked) ticked_.push_back(index);
    if (ticked_.size() > 2) ticked_.erase(ticked_.begin());
  }
  ImGui::SameLine();
  if (ImGui::SmallButton("open")) app.open(rank.file);
  ImGui::TableNextColumn();
  ImGui::TextUnformatted(std::filesystem::path(rank.file).filename().string().c_str());
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", rank.file.c_str());
  ImGui::TableNextColumn();
  ImGui::TextUnformatted(format_bytes(static_cast<double>(rank.peak_bytes)).c_str());
  ImGui::TableNextColumn();
  const ImVec4 deviation_color = row.outlier ? ImVec4(1, 0.45f, 0.45f, 1) : ImVec4(0.7f, 0.7f, 0.7f, 1);
  ImGui::TextColored(deviation_color, "%+.1f%%%s", row.deviation_percent, row.outlier ? " *" : "");
  ImGui::TableNextColumn();
  ImGui::Text("%s", rank.peak_event < 0 ? "start" : ("#" + std::to_string(rank.peak_event)).c_str());
  ImGui::TableNextColumn();
  ImGui::TextUnformatted(format_bytes(static_cast<double>(rank.reserved_peak)).c_str());
  ImGui::TableNextColumn();
  const std::vector<float> points = curve_points(rank.total_curve);
  if (!points.empty()) {
    ImGui::PlotLines("##curve", points.data(), static_cast<int>(points.size()), 0, nullptr, 0.0f,
                     static_cast<float>(rank.peak_bytes), ImVec2(160, ImGui::GetTextLineHeight() * 1.4f));
  }
  ImGui::TableNextColumn();
  ImGui::TextUnformatted(rank.phase_at_peak.empty() ? "-" : rank.phase_at_peak.c_str());
  ImGui::TableNextColumn();
  ImGui::Text("%s (%s)", rank.top_category.empty() ? "-" : rank.top_category.c_str(),
              format_bytes(static_cast<double>(rank.top_category_bytes)).c_str());
  ImGui::TableNextColumn();
  ImGui::TextUnformatted(rank.top_location.c_str());
  ImGui::PopID();
}

void RankTablePanel::draw(AppState& app) {
  if (!active()) return;
  if (ImGui::BeginMainMenuBar()) {
    if (ImGui::BeginMenu("Ranks")) {
      ImGui::MenuItem("Show rank table", nullptr, &shown_);
      ImGui::EndMenu();
    }
    ImGui::EndMainMenuBar();
  }
  if (!shown_) return;
  const ImGuiIO& io = ImGui::GetIO();
  ImGui::SetNextWindowSize(ImVec2(io.DisplaySize.x * 0.8f, io.DisplaySize.y * 0.6f), ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowPos(ImVec2(io.DisplaySize.x * 0.1f, io.DisplaySize.y * 0.15f), ImGuiCond_FirstUseEver);
  if (!ImGui::Begin(("Ranks: " + directory_ + "###ranks").c_str(), &shown_)) {
    ImGui::End();
    return;
  }
  const RankTable* shown = table();
  if (!error().empty()) {
    ImGui::TextColored(theme::kErrorText, "%s", error().c_str());
  } else if (shown == nullptr) {
    ImGui::TextDisabled("reading the ranks (one per core)...");
  } else {
    ImGui::Text("%zu ranks, median peak %s; outliers (*) are more than %.0f%% from it", shown->rows.size(),
                format_bytes(static_cast<double>(shown->median_peak)).c_str(), shown->outlier_percent);
    ImGui::SameLine();
    if (ImGui::Button("Compare the two ticked") && ticked_.size() == 2)
      compare_ranks(app, ticked_[0], ticked_[1]);
    const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_ScrollY | ImGuiTableFlags_Resizable;
    if (ImGui::BeginTable("rank-table", 10, flags)) {
      ImGui::TableSetupScrollFreeze(0, 1);
      const auto fixed = [](const char* title, const char* widest) {
        ImGui::TableSetupColumn(title, ImGuiTableColumnFlags_WidthFixed, fit_column_width(title, widest));
      };
      fixed("", "[x] open ");
      ImGui::TableSetupColumn("Rank", ImGuiTableColumnFlags_WidthStretch, 1);
      fixed("Peak", "999.99 GiB");
      fixed("vs median", "+999.9% *");
      fixed("At", "#99999999");
      fixed("Reserved", "999.99 GiB");
      ImGui::TableSetupColumn("Total over time", ImGuiTableColumnFlags_WidthFixed, 170);
      ImGui::TableSetupColumn("Phase at peak", ImGuiTableColumnFlags_WidthStretch, 1);
      ImGui::TableSetupColumn("Top category", ImGuiTableColumnFlags_WidthStretch, 1);
      ImGui::TableSetupColumn("Top location", ImGuiTableColumnFlags_WidthStretch, 2);
      ImGui::TableHeadersRow();
      for (size_t i = 0; i < shown->rows.size(); ++i) draw_row(app, i, shown->rows[i]);
      ImGui::EndTable();
    }
  }
  ImGui::End();
}

nlohmann::json RankTablePanel::table_json() const {
  const RankTable* shown = table();
  if (shown == nullptr) return {{"loaded", false}, {"error", error()}};
  nlohmann::json ranks = nlohmann::json::array();
  for (const RankRow& row : shown->rows) {
    ranks.push_back({{"file", row.summary.file},
                     {"peak_bytes", row.summary.peak_bytes},
                     {"deviation_percent", row.deviation_percent},
                     {"outlier", row.outlier},
                     {"top_category", row.summary.top_category},
                     {"curve_points", row.summary.total_curve.size()}});
  }
  return {{"loaded", true}, {"median_peak", shown->median_peak}, {"ranks", ranks}};
}

}  // namespace snapscope
