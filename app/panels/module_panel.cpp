#include "app/panels/module_panel.h"

#include <imgui.h>

#include <algorithm>
#include <string>

#include "app/widgets/location_text.h"
#include "app/widgets/table_columns.h"
#include "app/widgets/theme.h"
#include "core/cursor/element_marks.h"
#include "core/util/format.h"

namespace snapscope {
namespace {

// Rows below the fixed groups are module calls (ModuleInstances' first nodes are the groups).
bool has_module_calls(const ModuleTree& tree) {
  return std::any_of(tree.rows.begin(), tree.rows.end(),
                     [](const ModuleRow& row) { return row.node > kBackwardByForward; });
}

double share_of(const ModuleTree& tree, uint64_t bytes) {
  return tree.live_bytes == 0 ? 0 : static_cast<double>(bytes) / static_cast<double>(tree.live_bytes);
}

// The row after `index`'s subtree (rows are depth-first).
size_t after_subtree(const ModuleTree& tree, size_t index) {
  size_t next = index + 1;
  while (next < tree.rows.size() && tree.rows[next].depth > tree.rows[index].depth) ++next;
  return next;
}

nlohmann::json rows_json(const ModuleTree& tree) {
  nlohmann::json rows = nlohmann::json::array();
  for (const ModuleRow& row : tree.rows) {
    rows.push_back({{"depth", row.depth},
                    {"label", row.label},
                    {"path", row.path},
                    {"bytes", row.bytes},
                    {"self_bytes", row.self_bytes},
                    {"count", row.count}});
  }
  return rows;
}

}  // namespace

void ModulePanel::reset() {
  drawn_ = nullptr;
  drawn_state_.reset();
  selected_.reset();
}

void ModulePanel::select(Session& session, const SessionModuleTree& shown, uint32_t node) {
  selected_ = node;
  // Highlights are element ids of the shown timeline: the segments chart has other ids.
  const Timeline* timeline = session.timeline();
  if (timeline != shown.blocks) return;
  session.highlights.group.assign(timeline->element_count(),
                                  module_members(shown.live, shown.modules->instances, node));
}

size_t ModulePanel::draw_row(Session& session, const SessionModuleTree& shown, size_t index) {
  const ModuleTree& tree = shown.tree;
  const ModuleRow& row = tree.rows[index];
  const size_t end = after_subtree(tree, index);
  ImGui::TableNextRow();
  ImGui::TableNextColumn();
  ImGui::PushID(static_cast<int>(row.node));
  const bool leaf = end == index + 1;
  ImGuiTreeNodeFlags flags = ImGuiTreeNodeFlags_OpenOnArrow | ImGuiTreeNodeFlags_OpenOnDoubleClick |
                             ImGuiTreeNodeFlags_SpanFullWidth;
  if (leaf) flags |= ImGuiTreeNodeFlags_Leaf | ImGuiTreeNodeFlags_NoTreePushOnOpen;
  if (selected_ == row.node) flags |= ImGuiTreeNodeFlags_Selected;
  // Top-level rows open at first sight: the model's call lists its (repeated) blocks.
  if (row.depth == 0) flags |= ImGuiTreeNodeFlags_DefaultOpen;
  const std::string shown_label =
      elide_location(row.label, ImGui::GetContentRegionAvail().x - ImGui::GetTreeNodeToLabelSpacing());
  const bool open = ImGui::TreeNodeEx("##module", flags, "%s", shown_label.c_str());
  if (ImGui::IsItemHovered()) {
    ImGui::SetTooltip("%s\nin its own forward: %s", row.path.c_str(),
                      format_bytes(static_cast<double>(row.self_bytes)).c_str());
  }
  if (ImGui::IsItemClicked() && !ImGui::IsItemToggledOpen()) select(session, shown, row.node);
  const double share = share_of(tree, row.bytes);
  ImGui::TableNextColumn();
  ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(theme::from_rgb(heat_color(share))), "%s",
                     format_bytes(static_cast<double>(row.bytes)).c_str());
  ImGui::TableNextColumn();
  ImGui::Text("%6.2f%%", 100 * share);
  ImGui::TableNextColumn();
  ImGui::TextUnformatted(format_grouped(row.count).c_str());
  if (open && !leaf) {
    for (size_t child = index + 1; child < end;) child = draw_row(session, shown, child);
    ImGui::TreePop();
  }
  ImGui::PopID();
  return end;
}

void ModulePanel::draw(Session& session) {
  if (!session.cursor.placed()) {
    drawn_ = nullptr;
    drawn_state_.reset();
    ImGui::TextDisabled("place the time cursor (click empty chart space, or P for the peak)");
    return;
  }
  const SessionModuleTree* shown = session.module_tree();
  if (!session.module_tree_error().empty()) ImGui::TextDisabled("%s", session.module_tree_error().c_str());
  if (shown == nullptr) {
    drawn_ = nullptr;
    drawn_state_.reset();
    if (!session.module_tree_current()) ImGui::TextDisabled("placing allocations in their module calls...");
    return;
  }
  if (shown != drawn_ && selected_) select(session, *shown, *selected_);  // the row at the new cursor
  drawn_ = shown;
  drawn_state_ = shown->tree.state;
  const ModuleTree& tree = shown->tree;
  ImGui::Text("%s live by nn.Module call", format_bytes(static_cast<double>(tree.live_bytes)).c_str());
  if (!session.module_tree_current()) {
    ImGui::SameLine();
    ImGui::TextDisabled("updating...");
  }
  if (!has_module_calls(tree)) {
    ImGui::TextDisabled(
        "no live allocation was made inside an nn.Module's forward (torch/nn/modules/module.py)");
  }
  const ImGuiTableFlags flags = ImGuiTableFlags_ScrollY | ImGuiTableFlags_RowBg |
                                ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_Resizable;
  if (!ImGui::BeginTable("modules", 4, flags)) return;
  ImGui::TableSetupScrollFreeze(0, 1);
  ImGui::TableSetupColumn("Module call (forward <- call site)", ImGuiTableColumnFlags_WidthStretch);
  ImGui::TableSetupColumn("Live", ImGuiTableColumnFlags_WidthFixed, fit_column_width("Live", "999.99 MiB"));
  ImGui::TableSetupColumn("% live", ImGuiTableColumnFlags_WidthFixed, fit_column_width("% live", "100.00%"));
  ImGui::TableSetupColumn("Count", ImGuiTableColumnFlags_WidthFixed, fit_column_width("Count", "999,999"));
  ImGui::TableHeadersRow();
  for (size_t index = 0; index < tree.rows.size();) index = draw_row(session, *shown, index);
  ImGui::EndTable();
}

nlohmann::json ModulePanel::json(Session& session) const {
  const SessionModuleTree* tree = session.module_tree_now();
  nlohmann::json json = {{"drawn_state", drawn_state_ ? nlohmann::json(*drawn_state_) : nlohmann::json()},
                         {"error", session.module_tree_error()}};
  if (tree == nullptr) return json;
  json["state"] = tree->tree.state;
  json["live_bytes"] = tree->tree.live_bytes;
  json["rows"] = rows_json(tree->tree);
  return json;
}

}  // namespace snapscope
