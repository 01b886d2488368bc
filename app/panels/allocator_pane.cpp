#include "app/panels/allocator_pane.h"

#include <imgui.h>

#include <algorithm>
#include <exception>

#include "app/chart/reserved_curve.h"
#include "app/panels/database_wait.h"
#include "app/widgets/theme.h"
#include "core/allocator/db_event_source.h"
#include "core/analysis/state_mapping.h"
#include "core/cursor/time_cursor.h"
#include "core/util/format.h"

namespace snapscope {

namespace {

// The snapshot's allocator_settings (memory_viz's fifth tab): key, value, what it does.
void draw_allocator_settings(Session& session) {
  if (session.database_writing()) {
    draw_database_wait(session);
    return;
  }
  const std::vector<AllocatorSetting>* settings = session.allocator_settings();
  if (settings == nullptr || settings->empty()) {
    ImGui::TextDisabled("this snapshot records no allocator_settings (PyTorch before 2.1)");
    return;
  }
  const ImGuiTableFlags flags = ImGuiTableFlags_ScrollY | ImGuiTableFlags_RowBg |
                                ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_Resizable;
  if (!ImGui::BeginTable("allocator-settings", 2, flags)) return;
  ImGui::TableSetupScrollFreeze(0, 1);
  ImGui::TableSetupColumn("Setting", ImGuiTableColumnFlags_WidthFixed, 230);
  ImGui::TableSetupColumn("Value", ImGuiTableColumnFlags_WidthStretch);
  ImGui::TableHeadersRow();
  for (const AllocatorSetting& setting : *settings) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(setting.key.c_str());
    if (!setting.meaning.empty() && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", setting.meaning.c_str());
    ImGui::TableNextColumn();
    ImGui::TextWrapped("%s", setting.value.c_str());
  }
  ImGui::EndTable();
}

}  // namespace

void AllocatorPane::select_tab(script::Tab::Name tab) {
  using Name = script::Tab::Name;
  select_tab_ = tab == Name::Events     ? Tab::Events
                : tab == Name::Sql      ? Tab::Sql
                : tab == Name::Settings ? Tab::Settings
                                        : Tab::Allocator;
}

void AllocatorPane::reset() {
  sql_open_ = false;
  shown_device_.reset();
  forget_device();
}

void AllocatorPane::forget_device() {
  history_ = nullptr;
  curve_.reset();
  focus_.clear();
}

void AllocatorPane::before_frame(Session& session) {
  const Document* document = session.document();
  if (database_generation_ != session.database_generation()) {  // the database landed: connect to it
    database_generation_ = session.database_generation();
    sql_open_ = false;
    open_events(session);
  }
  if (!sql_open_ && !session.database_writing()) {
    sql_.open(document != nullptr ? document->elements_db().string() : std::string());
    sql_open_ = true;
  }
  const DeviceDocument* device = session.device();
  const std::optional<int> device_index = device ? std::optional(device->device) : std::nullopt;
  if (device_index != shown_device_) on_new_device(session);
  take_history(session);
}

void AllocatorPane::on_new_device(Session& session) {
  forget_device();
  const DeviceDocument* device = session.device();
  shown_device_ = device ? std::optional(device->device) : std::nullopt;
  open_events(session);
}

// The shown device's event list, from elements.db once it is there (none while it is written).
void AllocatorPane::open_events(const Session& session) {
  const Document* document = session.document();
  const DeviceDocument* device = session.device();
  const bool readable = document != nullptr && device != nullptr && !session.database_writing();
  events_.open(readable ? document->elements_db().string() : std::string(),
               device != nullptr ? device->device : 0);
}

void AllocatorPane::take_history(const Session& session) {
  AllocatorHistory* built = session.allocator_history();
  if (built == history_) return;
  history_ = built;
  events_.set_history(history_);
}

int64_t AllocatorPane::focused_event(const Session& session) const {
  const Timeline* timeline = session.timeline();
  if (timeline == nullptr || !session.cursor.placed()) return -1;
  return focus_.event(*timeline, session.cursor.state());
}

void AllocatorPane::focus_event(Session& session, int64_t event) {
  const Timeline* timeline = session.timeline();
  if (timeline == nullptr) return;
  session.cursor.place(*timeline, focus_.focus(*timeline, event, events_.event_count()));
}

void AllocatorPane::draw_usage_strip(Session& session, float x_offset, float width, float height) {
  const Timeline* timeline = session.timeline();
  const UsageCurve* usage = session.usage_curve();
  if (usage == nullptr || timeline == nullptr) {
    ImGui::Dummy(ImVec2(width, height));
    return;
  }
  curve_.draw(session, *usage, *timeline, x_offset, width, height);
}

void AllocatorPane::draw_oom_markers(const Session& session, float x, float y, float width, float height) {
  const Timeline* timeline = session.timeline();
  if (history_ == nullptr || timeline == nullptr) return;
  draw_oom_lines(session, *timeline, history_->ooms(), x, y, width, height);
}

void AllocatorPane::draw_pane(Session& session, float width, float height) {
  ImGui::BeginChild("allocator-pane", ImVec2(width, height), true);
  const int64_t event = focused_event(session);
  const SessionAllocatorState* shown =
      history_ != nullptr && session.cursor.placed() ? session.allocator_state(event) : nullptr;
  if (ImGui::BeginTabBar("allocator-tabs", ImGuiTabBarFlags_FittingPolicyScroll)) {
    const auto tab_flags = [&](Tab tab) {
      return select_tab_ == tab ? ImGuiTabItemFlags_SetSelected : ImGuiTabItemFlags_None;
    };
    if (ImGui::BeginTabItem("Allocator state", nullptr, tab_flags(Tab::Allocator))) {
      if (session.database_writing()) {
        draw_database_wait(session);
      } else if (!session.allocator_history_error().empty()) {
        ImGui::TextColored(theme::kErrorText, "allocator history unavailable: %s",
                           session.allocator_history_error().c_str());
      } else if (history_ == nullptr) {
        ImGui::TextDisabled(session.device() != nullptr
                                ? "replaying the trace backwards from the segment snapshot..."
                                : "no snapshot open");
      } else if (!session.cursor.placed()) {
        ImGui::TextDisabled(
            "place the time cursor (click the chart, Home/End, P for peak) to see the allocator");
      } else if (shown == nullptr) {
        ImGui::TextDisabled("rebuilding the allocator at event #%lld...", static_cast<long long>(event));
      } else {
        allocator_.draw(shown->state, shown->layout, shown->event, shown->build_ms);
      }
      ImGui::EndTabItem();
    }
    if (ImGui::BeginTabItem("Events", nullptr, tab_flags(Tab::Events))) {
      if (session.database_writing()) {
        draw_database_wait(session);
      } else if (const auto chosen =
                     events_.draw(session.cursor.placed() ? std::optional<int64_t>(event) : std::nullopt)) {
        focus_event(session, *chosen);
      }
      ImGui::EndTabItem();
    }
    if (ImGui::BeginTabItem("Settings", nullptr, tab_flags(Tab::Settings))) {
      draw_allocator_settings(session);
      ImGui::EndTabItem();
    }
    if (ImGui::BeginTabItem("SQL", nullptr, tab_flags(Tab::Sql))) {
      if (session.database_writing()) {
        draw_database_wait(session);
      } else {
        sql_.draw();
      }
      ImGui::EndTabItem();
    }
    ImGui::EndTabBar();
  }
  select_tab_ = Tab::None;
  ImGui::EndChild();
}

nlohmann::json AllocatorPane::json(Session& session) {
  nlohmann::json out = {{"sql", sql_.json()}};
  session.wait_allocator_history();
  take_history(session);
  AllocatorHistory* built = history_;
  if (!session.allocator_history_error().empty()) out["allocator_error"] = session.allocator_history_error();
  if (built == nullptr || !session.cursor.placed()) return out;
  const int64_t event = focused_event(session);
  const SessionAllocatorState* shown = session.allocator_state_now(event);
  if (shown == nullptr) return out;
  const SegmentLayout& layout = shown->layout;
  out["allocator"] = {
      {"event", event},
      {"segments", shown->state.segments().size()},
      {"blocks", shown->state.blocks().size()},
      {"allocated", shown->state.allocated_bytes()},
      {"reserved", shown->state.reserved_bytes()},
      {"pending_free", shown->state.pending_free_bytes()},
      {"rows", layout.rows},
      {"private_pool_segments", std::count_if(layout.segments.begin(), layout.segments.end(),
                                              [](const PlacedSegment& s) { return s.pool.has_value(); })},
      {"ooms", built->ooms().size()}};
  return out;
}

}  // namespace snapscope
