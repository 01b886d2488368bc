#include "app/panels/phase_panel.h"

#include <imgui.h>

#include <algorithm>
#include <cstdint>

#include "app/chart/cursor_controls.h"
#include "core/cursor/time_cursor.h"
#include "core/util/format.h"
#include "core/view/y_fit.h"

namespace snapscope {
namespace {

std::string event_label(int64_t event) { return event < 0 ? std::string("-") : "#" + std::to_string(event); }

}  // namespace

void select_phase(Session& session, const PhaseRow& row) {
  const Timeline* timeline = session.timeline();
  if (timeline == nullptr) return;
  const double x0 = state_x(*timeline, row.start_state), x1 = state_x(*timeline, row.end_state);
  const double margin = std::max(1.0, (x1 - x0) * 0.05);
  DataRect visible = session.view.visible();
  visible.x0 = x0 - margin;
  visible.x1 = x1 + margin;
  // Both axes: y fits the phase's totals even while y fitting is switched off.
  session.view.set_visible(fit_y(visible, *timeline, *session.device()->pyramid(session.settings.kind),
                                 session.settings.y_fit.raise_floor));
  session.cursor.place(*timeline, row.peak_state);
}

void PhasePanel::reset() {
  filter_[0] = '\0';
  selected_ = SIZE_MAX;
}

bool PhasePanel::settled(const Session& session) const {
  return session.document() == nullptr || session.phase_table_current(filter_);
}

const PhaseTable& PhasePanel::table(Session& session) {
  static const PhaseTable kNone;
  const PhaseTable* table = session.phase_table(filter_);
  return table != nullptr ? *table : kNone;
}

void PhasePanel::draw(Session& session) {
  ImGui::SetNextItemWidth(240);
  if (ImGui::InputTextWithHint("##phase-filter", "filter by annotation name", filter_, sizeof filter_))
    selected_ = SIZE_MAX;  // the rows change
  const PhaseTable& phases = table(session);
  ImGui::SameLine();
  const bool current = session.phase_table_current(filter_);
  if (!current) {
    ImGui::TextDisabled("reading phases...");
    if (session.annotations() == nullptr) return;
    ImGui::SameLine();
  }
  ImGui::Text("%zu phases, %zu names", phases.rows.size(), phases.groups.size());
  if (!phases.has_times) {
    ImGui::TextDisabled("this trace has no time_us, so annotations cannot be placed on the timeline");
    return;
  }
  if (session.annotations() != nullptr && session.annotations()->empty()) {
    ImGui::TextDisabled("this snapshot has no external_annotations");
    return;
  }
  const std::vector<PhaseGroup>& groups = phases.groups;
  const ImGuiTableFlags flags = ImGuiTableFlags_ScrollY | ImGuiTableFlags_RowBg |
                                ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_Resizable;
  if (!ImGui::BeginTable("phases", 6, flags)) return;
  ImGui::TableSetupScrollFreeze(0, 1);
  ImGui::TableSetupColumn("Phase", ImGuiTableColumnFlags_WidthStretch);
  ImGui::TableSetupColumn("Start", ImGuiTableColumnFlags_WidthFixed, 90);
  ImGui::TableSetupColumn("End", ImGuiTableColumnFlags_WidthFixed, 90);
  ImGui::TableSetupColumn("Peak inside", ImGuiTableColumnFlags_WidthFixed, 90);
  ImGui::TableSetupColumn("Peak at", ImGuiTableColumnFlags_WidthFixed, 80);
  ImGui::TableSetupColumn("Delta", ImGuiTableColumnFlags_WidthFixed, 90);
  ImGui::TableHeadersRow();
  ImGuiListClipper clipper;
  clipper.Begin(static_cast<int>(groups.size()));
  while (clipper.Step()) {
    for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i) {
      const PhaseGroup& group = groups[static_cast<size_t>(i)];
      const PhaseRow& row = group.span;
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::PushID(i);
      const std::string name = std::string(2 * row.depth, ' ') + group.label();
      if (ImGui::Selectable(name.c_str(), selected_ == static_cast<size_t>(i),
                            ImGuiSelectableFlags_SpanAllColumns)) {
        selected_ = static_cast<size_t>(i);
        select_phase(session, group.count > 1 ? row : phases.rows[group.first_row]);
      }
      if (ImGui::IsItemHovered())
        ImGui::SetTooltip(group.count > 1 ? "%s\n%zu times; from the first start to the last end" : "%s",
                          row.name.c_str(), group.count);
      ImGui::PopID();
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(format_bytes(static_cast<double>(row.start_bytes)).c_str());
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(format_bytes(static_cast<double>(row.end_bytes)).c_str());
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(format_bytes(static_cast<double>(row.peak_bytes)).c_str());
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(event_label(row.peak_event).c_str());
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(format_signed_bytes(row.delta_bytes()).c_str());
    }
  }
  ImGui::EndTable();
}

}  // namespace snapscope
