#include "app/phase_panel.h"

#include <imgui.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <exception>

#include "app/cursor_controls.h"
#include "core/analysis/db_annotations.h"
#include "core/cursor/time_cursor.h"
#include "core/util/background_priority.h"
#include "core/util/format.h"
#include "core/view/y_fit.h"

namespace snapscope {
namespace {

std::string signed_bytes(int64_t delta) {
  const std::string magnitude = format_bytes(static_cast<double>(delta < 0 ? -delta : delta));
  return (delta < 0 ? "-" : "+") + magnitude;
}

std::string event_label(int64_t event) { return event < 0 ? std::string("-") : "#" + std::to_string(event); }

}  // namespace

void select_phase(AppState& state, const PhaseRow& row) {
  const Timeline* timeline = state.timeline();
  if (timeline == nullptr) return;
  const double x0 = state_x(*timeline, row.start_state), x1 = state_x(*timeline, row.end_state);
  const double margin = std::max(1.0, (x1 - x0) * 0.05);
  DataRect visible = state.view.visible();
  visible.x0 = x0 - margin;
  visible.x1 = x1 + margin;
  // Both axes: y fits the phase's totals even while y fitting is switched off.
  state.view.set_visible(fit_y(visible, *timeline, *state.device()->pyramid(state.settings.kind),
                               state.settings.y_fit.raise_floor));
  state.cursor.place(*timeline, row.peak_state);
}

void PhasePanel::open(const std::string& elements_db) {
  wait_idle();
  records_loading_ = {};
  shown_key_.reset();
  table_ = {};
  selected_ = SIZE_MAX;
  if (elements_db.empty()) return;
  records_loading_ =
      start_bulk_work([elements_db, ready = ready_]() -> Records {
        Records records;
        try {
          records = std::make_shared<const std::vector<AnnotationRecord>>(read_db_annotations(elements_db));
        } catch (const std::exception&) {
          // A database without annotations still shows everything else.
          records = std::make_shared<const std::vector<AnnotationRecord>>();
        }
        if (ready) ready();
        return records;
      }).share();
}

void PhasePanel::wait_idle() {
  if (building_.valid()) building_.wait();
}

PhasePanel::Key PhasePanel::wanted_key(const AppState& state) const {
  return {state.timeline(), state.settings.device, filter_};
}

bool PhasePanel::settled(const AppState& state) {
  if (state.timeline() == nullptr || !records_loading_.valid()) return true;
  // A finished build is taken by the next frame's table(), not here: until that frame is drawn,
  // what is on screen is not settled.
  return records() && !building_.valid() && shown_key_ == wanted_key(state);
}

void PhasePanel::wait_settled() {
  if (records_loading_.valid()) records_loading_.wait();
  wait_idle();
}

const PhasePanel::Records& PhasePanel::records() const {
  static const Records kNotYet;
  if (!records_loading_.valid() ||
      records_loading_.wait_for(std::chrono::seconds(0)) != std::future_status::ready)
    return kNotYet;
  return records_loading_.get();
}

void PhasePanel::take_finished_build() {
  if (!building_.valid() || building_.wait_for(std::chrono::seconds(0)) != std::future_status::ready) return;
  table_ = building_.get();
  shown_key_ = building_key_;
  selected_ = SIZE_MAX;
}

const PhaseTable& PhasePanel::table(const AppState& state) {
  static const PhaseTable kNone;
  const Timeline* timeline = state.timeline();
  if (timeline == nullptr) return kNone;
  take_finished_build();
  Key wanted = wanted_key(state);
  const bool shown_timeline = shown_key_ && shown_key_->timeline == timeline;
  if (shown_key_ == wanted || building_.valid() || !records()) return shown_timeline ? table_ : kNone;
  building_key_ = wanted;
  building_ = start_bulk_work([records = records(), wanted, ready = ready_] {
    PhaseTable built =
        build_phase_table(*wanted.timeline, pair_annotations(*records, wanted.device), wanted.filter);
    if (ready) ready();
    return built;
  });
  return shown_timeline ? table_ : kNone;
}

void PhasePanel::draw(AppState& state) {
  ImGui::SetNextItemWidth(240);
  ImGui::InputTextWithHint("##phase-filter", "filter by annotation name", filter_, sizeof filter_);
  const PhaseTable& phases = table(state);
  ImGui::SameLine();
  if (!records() || building_.valid()) {
    ImGui::TextDisabled("reading phases...");
    if (!shown_key_) return;
    ImGui::SameLine();
  }
  ImGui::Text("%zu phases", phases.rows.size());
  if (!phases.has_times) {
    ImGui::TextDisabled("this trace has no time_us, so annotations cannot be placed on the timeline");
    return;
  }
  if (records()->empty()) {
    ImGui::TextDisabled("this snapshot has no external_annotations");
    return;
  }
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
  clipper.Begin(static_cast<int>(phases.rows.size()));
  while (clipper.Step()) {
    for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i) {
      const PhaseRow& row = phases.rows[static_cast<size_t>(i)];
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::PushID(i);
      const std::string name = std::string(2 * row.depth, ' ') + row.name;
      if (ImGui::Selectable(name.c_str(), selected_ == static_cast<size_t>(i),
                            ImGuiSelectableFlags_SpanAllColumns)) {
        selected_ = static_cast<size_t>(i);
        select_phase(state, row);
      }
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
      ImGui::TextUnformatted(signed_bytes(row.delta_bytes()).c_str());
    }
  }
  ImGui::EndTable();
}

}  // namespace snapscope
