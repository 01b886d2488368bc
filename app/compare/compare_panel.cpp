#include "app/compare/compare_panel.h"

#include <imgui.h>

#include <algorithm>
#include <filesystem>
#include <functional>

#include "app/chart/strip_legend.h"
#include "app/widgets/location_text.h"
#include "app/widgets/table_columns.h"
#include "app/widgets/theme.h"
#include "core/analysis/state_mapping.h"
#include "core/cursor/time_cursor.h"
#include "core/util/format.h"

namespace snapscope {

namespace {

constexpr ImU32 kTotalColor = IM_COL32(80, 240, 255, 255);     // B's total: cyan, on a dark halo
constexpr ImU32 kReservedColor = IM_COL32(255, 170, 60, 255);  // B's reserved: orange
constexpr ImU32 kHiddenColor = IM_COL32(255, 200, 80, 255);    // notes on what of B is not shown
constexpr float kBLineWidth = 2.5f;
constexpr size_t kMaxChildrenShown = 200;   // wider call-path nodes show their largest changes
constexpr uint32_t kDefaultOpenDepth = 12;  // the largest change is opened this deep at first
constexpr float kPathIndent = 8;            // pixels per call-path level

uint64_t reserved_at(const DeviceDocument& device, const Timeline& blocks, size_t state) {
  return device.reserved.after_event(state == 0 ? -1 : event_of_state(blocks, state));
}

}  // namespace

void ComparePanel::reset() {
  open_paths_.clear();
  paths_toggled_ = false;
}

void ComparePanel::draw_overlay(Comparison& compared, float x, float y, float width, float height) {
  const RunAlignment* aligned = compared.alignment();
  if (aligned == nullptr) return;
  const Session& a = compared.a();
  const Session& b = compared.b();
  const Timeline& ta = *a.timeline();
  const DeviceDocument& device_b = *b.device();
  ImDrawList* draw = ImGui::GetWindowDrawList();
  draw->PushClipRect(ImVec2(x, y), ImVec2(x + width, y + height), true);
  const auto to_y = [&](uint64_t bytes) {
    return y + static_cast<float>(a.view.to_screen_y(static_cast<double>(bytes)));
  };
  std::vector<ImVec2> total, reserved;
  const int columns = std::max(2, static_cast<int>(width / 2));
  for (int column = 0; column <= columns; ++column) {
    const double data_x = a.view.to_data_x(a.view.viewport_width() * column / columns);
    const size_t b_state = aligned->b_state(state_shown_at(ta, data_x));
    const float px = x + width * static_cast<float>(column) / static_cast<float>(columns);
    total.emplace_back(px, to_y(device_b.blocks.total_at_state(b_state)));
    reserved.emplace_back(px, to_y(reserved_at(device_b, device_b.blocks, b_state)));
  }
  // A dark halo under each line: B stays visible over any of A's colours.
  draw->AddPolyline(reserved.data(), static_cast<int>(reserved.size()), theme::kHalo, 0, kBLineWidth + 2);
  draw->AddPolyline(reserved.data(), static_cast<int>(reserved.size()), kReservedColor, 0, kBLineWidth);
  draw->AddPolyline(total.data(), static_cast<int>(total.size()), theme::kHalo, 0, kBLineWidth + 2);
  draw->AddPolyline(total.data(), static_cast<int>(total.size()), kTotalColor, 0, kBLineWidth);
  const float legend_bottom = draw_b_legend(b, *aligned, x, y, width);
  draw_b_peak(a, b, *aligned, x, width, legend_bottom, to_y);
  draw->PopClipRect();
}

float ComparePanel::draw_b_legend(const Session& b, const RunAlignment& aligned, float x, float y,
                                  float width) const {
  const std::string name = std::filesystem::path(b.document()->opened_path).filename().string();
  const LegendEntry key[] = {
      {kTotalColor, "B total: " + name},
      {kReservedColor, "B reserved"},
      {IM_COL32(0, 0, 0, 0), std::string("aligned by ") + align_mode_name(aligned.effective_mode())}};
  ImDrawList* draw = ImGui::GetWindowDrawList();
  draw_strip_legend(draw, ImVec2(x + 4, y + 4), key, width - 8);
  // What of B this axis cannot show: the alignment puts it before A's start or after A's end.
  const auto [first, last] = aligned.b_reached();
  const Timeline& tb = b.device()->blocks;
  std::string hidden;
  if (first > 0) hidden = "B's first " + format_count(first, "action") + " fall before A's start";
  if (last < tb.action_count())
    hidden += (hidden.empty() ? "B's last " : "; its last ") +
              format_count(tb.action_count() - last, "action") + " after A's end";
  const float line = ImGui::GetTextLineHeightWithSpacing();
  if (hidden.empty()) return y + 4 + line;
  hidden += " (align events shows all of B)";
  const LegendEntry note[] = {{kHiddenColor, hidden}};
  draw_strip_legend(draw, ImVec2(x + 4, y + 6 + line), note, width - 8);
  return y + 6 + 2 * line;
}

void ComparePanel::draw_b_peak(const Session& a, const Session& b, const RunAlignment& aligned, float x,
                               float width, float text_y, const std::function<float(uint64_t)>& to_y) const {
  const Timeline& tb = b.device()->blocks;
  const size_t peak = peak_state(tb);
  const std::string what = "B's peak " + format_bytes(static_cast<double>(tb.peak_bytes())) + " at event #" +
                           std::to_string(event_of_state(tb, peak));
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const std::optional<size_t> a_state = aligned.a_state_for(peak);
  if (!a_state) {
    const LegendEntry note[] = {{kHiddenColor, what + " is off A's axis under this alignment"}};
    draw_strip_legend(draw, ImVec2(x + 4, text_y), note, width - 8);
    return;
  }
  const float px = x + static_cast<float>(a.view.to_screen_x(state_x(*a.timeline(), *a_state)));
  const float py = to_y(tb.peak_bytes());
  draw->AddTriangleFilled(ImVec2(px - 6, py - 10), ImVec2(px + 6, py - 10), ImVec2(px, py), theme::kHalo);
  draw->AddTriangleFilled(ImVec2(px - 4, py - 9), ImVec2(px + 4, py - 9), ImVec2(px, py - 2), kTotalColor);
  if (px < x || px > x + width) {
    const LegendEntry note[] = {{kHiddenColor, what + " is outside the view (zoom out)"}};
    draw_strip_legend(draw, ImVec2(x + 4, text_y), note, width - 8);
  }
}

void ComparePanel::draw_b_label(Comparison& compared, float x, float y) const {
  const Session& b = compared.b();
  if (b.document() == nullptr) return;
  const RunAlignment* aligned = compared.alignment();
  const std::string name = std::filesystem::path(b.document()->opened_path).filename().string();
  // follow_a gives B A's visible byte range: equal heights are equal bytes in both charts.
  const LegendEntry key[] = {
      {kTotalColor, "B: " + name + " (aligned by " +
                        std::string(aligned ? align_mode_name(aligned->effective_mode()) : "events") +
                        "; same byte scale as A)"}};
  draw_strip_legend(ImGui::GetWindowDrawList(), ImVec2(x + 4, y + 4), key,
                    ImGui::GetContentRegionAvail().x + ImGui::GetCursorScreenPos().x - x);
}

void ComparePanel::draw_summary(const Comparison& compared, const ComparisonDiff& shown) {
  const Timeline& ta = *shown.at.a_timeline;
  const Timeline& tb = *shown.at.b_timeline;
  const uint64_t peak_a = ta.peak_bytes(), peak_b = tb.peak_bytes();
  ImGui::Text("peak A %s at event #%lld, B %s at event #%lld: %s (%+.1f%%)",
              format_bytes(static_cast<double>(peak_a)).c_str(),
              static_cast<long long>(event_of_state(ta, peak_state(ta))),
              format_bytes(static_cast<double>(peak_b)).c_str(),
              static_cast<long long>(event_of_state(tb, peak_state(tb))),
              format_signed_bytes(static_cast<int64_t>(peak_b) - static_cast<int64_t>(peak_a)).c_str(),
              growth_percent(peak_a, peak_b));
  const uint64_t reserved_a = reserved_at(*compared.a().device(), ta, shown.at.a_state);
  const uint64_t reserved_b = reserved_at(*compared.b().device(), tb, shown.at.b_state);
  const auto fragmentation = [](uint64_t live, uint64_t reserved) {
    return reserved == 0 ? 0.0 : 100.0 * (1.0 - double(live) / double(reserved));
  };
  ImGui::Text("%s: A %s live, %s reserved (fragmentation %.1f%%) | B %s live, %s reserved (%.1f%%)",
              shown.at.at_peaks ? "at the peaks" : "at the cursor",
              format_bytes(double(shown.by_location.live_a)).c_str(),
              format_bytes(double(reserved_a)).c_str(), fragmentation(shown.by_location.live_a, reserved_a),
              format_bytes(double(shown.by_location.live_b)).c_str(),
              format_bytes(double(reserved_b)).c_str(), fragmentation(shown.by_location.live_b, reserved_b));
}

namespace {

bool begin_diff_table(const char* id, const char* name_column, bool name_first) {
  if (!ImGui::BeginTable(id, 5, ImGuiTableFlags_RowBg | ImGuiTableFlags_ScrollY | ImGuiTableFlags_Resizable))
    return false;
  ImGui::TableSetupScrollFreeze(0, 1);
  if (name_first) ImGui::TableSetupColumn(name_column, ImGuiTableColumnFlags_WidthStretch);
  ImGui::TableSetupColumn("B - A", ImGuiTableColumnFlags_WidthFixed,
                          fit_column_width("B - A", "+999.99 MiB"));
  ImGui::TableSetupColumn("A", ImGuiTableColumnFlags_WidthFixed, fit_column_width("A", "999.99 MiB"));
  ImGui::TableSetupColumn("B", ImGuiTableColumnFlags_WidthFixed, fit_column_width("B", "999.99 MiB"));
  ImGui::TableSetupColumn("", ImGuiTableColumnFlags_WidthFixed, fit_column_width("", "vanished"));
  if (!name_first) ImGui::TableSetupColumn(name_column, ImGuiTableColumnFlags_WidthStretch);
  ImGui::TableHeadersRow();
  return true;
}

void draw_byte_columns(int64_t delta, uint64_t a, uint64_t b, DiffStatus status) {
  ImGui::TableNextColumn();
  const ImVec4 color = delta > 0   ? ImVec4(1, 0.55f, 0.45f, 1)
                       : delta < 0 ? ImVec4(0.5f, 0.85f, 0.5f, 1)
                                   : ImVec4(0.7f, 0.7f, 0.7f, 1);
  ImGui::TextColored(color, "%s", format_signed_bytes(delta).c_str());
  ImGui::TableNextColumn();
  ImGui::TextUnformatted(format_bytes(static_cast<double>(a)).c_str());
  ImGui::TableNextColumn();
  ImGui::TextUnformatted(format_bytes(static_cast<double>(b)).c_str());
  ImGui::TableNextColumn();
  ImGui::TextDisabled("%s", diff_status_name(status));
}

}  // namespace

void ComparePanel::draw_rows(Comparison& compared, const MomentDiff& rows, CompareGrouping grouping) {
  const std::optional<CompareHighlight>& highlighted = compared.highlighted();
  if (!begin_diff_table("compare-rows", grouping == CompareGrouping::Location ? "Location" : "Category",
                        false))
    return;
  for (const DiffRow& row : rows.rows) {
    ImGui::TableNextRow();
    draw_byte_columns(row.delta(), row.bytes_a, row.bytes_b, row.status);
    ImGui::TableNextColumn();
    const bool chosen = highlighted && *highlighted == CompareHighlight{grouping, row.location};
    const std::string shown = elide_location(row.location, ImGui::GetContentRegionAvail().x);
    ImGui::PushID(row.location.c_str());
    if (ImGui::Selectable(shown.c_str(), chosen, ImGuiSelectableFlags_SpanAllColumns))
      compared.highlight(CompareHighlight{grouping, row.location});
    full_text_tooltip(row.location, shown);
    ImGui::PopID();
  }
  ImGui::EndTable();
}

// Rows in display order: the root, then the children of every open row (largest change first).
std::vector<uint32_t> ComparePanel::shown_path_rows(const CallTreeDiff& tree) const {
  return display_order(
      tree, [&](uint32_t node) { return open_paths_.contains(tree.path_text(node)); },
      [](uint32_t, size_t index) { return index < kMaxChildrenShown; });
}

void ComparePanel::draw_path_node(Comparison& compared, const CallTreeDiff& tree, uint32_t id) {
  const TreeDiffNode& node = tree.node(id);
  const std::string path = tree.path_text(id);
  ImGui::TableNextRow();
  ImGui::TableNextColumn();
  ImGui::PushID(static_cast<int>(id));
  const bool leaf = node.children.empty();
  ImGuiTreeNodeFlags flags = ImGuiTreeNodeFlags_OpenOnArrow | ImGuiTreeNodeFlags_SpanFullWidth;
  if (leaf) flags |= ImGuiTreeNodeFlags_Leaf | ImGuiTreeNodeFlags_NoTreePushOnOpen;
  if (compared.highlighted() == CompareHighlight{CompareGrouping::CallPath, path})
    flags |= ImGuiTreeNodeFlags_Selected;
  const bool was_open = open_paths_.contains(path);
  ImGui::SetNextItemOpen(was_open);
  const std::string shown_label =
      elide_location(node.label, ImGui::GetContentRegionAvail().x - ImGui::GetTreeNodeToLabelSpacing());
  const bool open = ImGui::TreeNodeEx("##path", flags, "%s", shown_label.c_str());
  full_text_tooltip(node.label, shown_label);
  if (ImGui::IsItemToggledOpen()) {
    paths_toggled_ = true;
    if (open) {
      open_paths_.insert(path);
    } else {
      open_paths_.erase(path);
    }
  } else if (ImGui::IsItemClicked()) {
    compared.highlight(CompareHighlight{CompareGrouping::CallPath, path});
  }
  draw_byte_columns(node.delta(), node.bytes_a, node.bytes_b, node.status);
  if (open && !leaf) {
    const size_t shown = std::min(node.children.size(), kMaxChildrenShown);
    for (size_t i = 0; i < shown; ++i) draw_path_node(compared, tree, node.children[i]);
    if (shown < node.children.size()) {
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::TextDisabled("(%zu smaller changes not shown)", node.children.size() - shown);
    }
    ImGui::TreePop();
  }
  ImGui::PopID();
}

// At first the largest change is opened down its path (a default, until the user toggles a row).
void ComparePanel::open_default_paths(const CallTreeDiff& tree) {
  if (paths_toggled_) return;
  open_paths_.clear();
  for (uint32_t id = CallTreeDiff::kRoot;
       !tree.node(id).children.empty() && tree.node(id).depth < kDefaultOpenDepth;
       id = tree.node(id).children.front()) {
    open_paths_.insert(tree.path_text(id));
  }
}

void ComparePanel::draw_path_rows(Comparison& compared, const ComparisonDiff& shown) {
  const CallTreeDiff& tree = shown.by_path;
  open_default_paths(tree);
  if (!begin_diff_table("compare-paths", "Call path (caller -> callee)", true)) return;
  ImGui::PushStyleVar(ImGuiStyleVar_IndentSpacing, kPathIndent);  // deep stacks keep their labels
  draw_path_node(compared, tree, CallTreeDiff::kRoot);
  ImGui::PopStyleVar();
  ImGui::EndTable();
}

void ComparePanel::draw_controls(Comparison& compared, const ComparisonDiff& shown) {
  const RunAlignment* aligned = compared.alignment();
  ImGui::TextDisabled("align:");
  for (const AlignMode choice : {AlignMode::Events, AlignMode::Time, AlignMode::Steps}) {
    ImGui::SameLine();
    if (ImGui::RadioButton(align_mode_name(choice), compared.mode() == choice)) compared.set_mode(choice);
  }
  if (aligned && aligned->effective_mode() != compared.mode()) {
    ImGui::SameLine();
    ImGui::TextDisabled("(no matching %s: by events)",
                        compared.mode() == AlignMode::Time ? "timestamps" : "annotations");
  }
  ImGui::TextDisabled("B:");
  ImGui::SameLine();
  if (ImGui::RadioButton("over A", layout_ == Layout::Overlay)) layout_ = Layout::Overlay;
  ImGui::SameLine();
  if (ImGui::RadioButton("own chart", layout_ == Layout::Stacked)) layout_ = Layout::Stacked;
  ImGui::SameLine(0, 24);
  ImGui::TextDisabled("rows by:");
  const std::pair<CompareGrouping, const char*> groupings[] = {{CompareGrouping::Location, "location"},
                                                               {CompareGrouping::Category, "category"},
                                                               {CompareGrouping::CallPath, "call path"}};
  for (const auto& [choice, name] : groupings) {
    ImGui::SameLine();
    if (ImGui::RadioButton(name, grouping_ == choice)) set_grouping(choice);
  }
  if (compared.computing()) {
    ImGui::SameLine();
    ImGui::TextDisabled("(updating...)");
  }
  ImGui::SameLine(0, 24);
  if (ImGui::SmallButton("Copy CSV")) {  // both tables, as snapscope-convert --diff --summary csv
    ImGui::SetClipboardText((std::string(kMomentDiffCsvHeader) +
                             moment_diff_csv_rows(shown.by_location, "location") +
                             moment_diff_csv_rows(shown.by_category, "category"))
                                .c_str());
  }
}

void ComparePanel::draw_panel(Comparison& compared) {
  const std::shared_ptr<const ComparisonDiff> shown = compared.diff();
  if (shown == nullptr) {
    ImGui::TextDisabled(compared.a().stack_catalog() && compared.b().stack_catalog()
                            ? "comparing..."
                            : "loading both runs' stacks...");
    return;
  }
  draw_summary(compared, *shown);
  draw_controls(compared, *shown);
  switch (grouping_) {
    case CompareGrouping::Location:
      draw_rows(compared, shown->by_location, CompareGrouping::Location);
      break;
    case CompareGrouping::Category:
      if (shown->at.a_categories == nullptr) {
        ImGui::TextDisabled("classifying allocations...");
        break;
      }
      draw_rows(compared, shown->by_category, CompareGrouping::Category);
      break;
    case CompareGrouping::CallPath:
      draw_path_rows(compared, *shown);
      break;
  }
}

bool ComparePanel::click_row(Comparison& compared, size_t index) {
  const std::shared_ptr<const ComparisonDiff> shown = compared.diff_now();
  if (shown == nullptr) return false;
  if (grouping_ == CompareGrouping::CallPath) {
    open_default_paths(shown->by_path);
    const std::vector<uint32_t> rows = shown_path_rows(shown->by_path);
    if (index >= rows.size()) return false;
    compared.highlight(CompareHighlight{CompareGrouping::CallPath, shown->by_path.path_text(rows[index])});
    return true;
  }
  const MomentDiff& rows = grouping_ == CompareGrouping::Location ? shown->by_location : shown->by_category;
  if (index >= rows.rows.size()) return false;
  compared.highlight(CompareHighlight{grouping_, rows.rows[index].location});
  return true;
}

nlohmann::json ComparePanel::compare_json(Comparison& compared) {
  const std::shared_ptr<const ComparisonDiff> shown = compared.diff_now();
  if (shown == nullptr) return {{"loaded", false}};
  open_default_paths(shown->by_path);
  nlohmann::json out = compared.json(*shown, shown_path_rows(shown->by_path));
  out["layout"] = layout_ == Layout::Stacked ? "stacked" : "overlay";
  return out;
}

}  // namespace snapscope
