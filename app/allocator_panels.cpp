#include "app/allocator_panels.h"

#include <imgui.h>

#include <chrono>
#include <exception>

#include "app/reserved_curve.h"
#include "app/theme.h"
#include "core/allocator/db_event_source.h"
#include "core/analysis/state_mapping.h"
#include "core/cursor/time_cursor.h"
#include "core/util/background_priority.h"
#include "core/util/format.h"

namespace snapscope {

AllocatorPanels::~AllocatorPanels() { cancel_build(); }

void AllocatorPanels::cancel_build() {
  if (cancel_) *cancel_ = true;
  if (building_.valid()) building_.wait();
  building_ = {};
  cancel_.reset();
}

void AllocatorPanels::before_frame(AppState& state) {
  if (state.document() != document_) {
    document_ = state.document();
    sql_.open(document_ != nullptr ? document_->elements_db().string() : std::string());
    device_ = nullptr;
  }
  if (state.device() != device_) on_new_device(state);
  history(false);
}

void AllocatorPanels::on_new_device(AppState& state) {
  cancel_build();
  device_ = state.device();
  history_.reset();
  build_error_.clear();
  usage_.reset();
  curve_.reset();
  state_.reset();
  shown_event_.reset();
  focus_.clear();
  events_.open(document_ != nullptr && device_ != nullptr ? document_->elements_db().string() : std::string(),
               device_ != nullptr ? device_->device : 0);
  if (device_ == nullptr) return;
  usage_ = std::make_unique<UsageCurve>(device_->blocks, device_->segments,
                                        device_->pyramid(TimelineKind::Segments));
  cancel_ = std::make_shared<std::atomic<bool>>(false);
  // Seconds of indexing must not slow the frames.
  building_ =
      start_bulk_work([db = document_->elements_db().string(), device = device_->device, cancel = cancel_] {
        return allocator_history_from_db(db, device, cancel.get());
      });
}

AllocatorHistory* AllocatorPanels::history(bool wait) {
  if (history_ || !building_.valid()) return history_.get();
  if (!wait && building_.wait_for(std::chrono::seconds(0)) != std::future_status::ready) return nullptr;
  try {
    history_ = building_.get();
    events_.set_history(history_.get());
  } catch (const std::exception& error) {
    build_error_ = error.what();
  }
  building_ = {};
  return history_.get();
}

int64_t AllocatorPanels::focused_event(const AppState& state) const {
  const Timeline* timeline = state.timeline();
  if (timeline == nullptr || !state.cursor.placed()) return -1;
  return focus_.event(*timeline, state.cursor.state());
}

void AllocatorPanels::focus_event(AppState& state, int64_t event) {
  const Timeline* timeline = state.timeline();
  if (timeline == nullptr) return;
  state.cursor.place(*timeline, focus_.focus(*timeline, event, events_.event_count()));
}

void AllocatorPanels::refresh_state(int64_t event) {
  if (history_ == nullptr || shown_event_ == event) return;
  const auto start = std::chrono::steady_clock::now();
  state_ = history_->after_event(event);
  layout_ = layout_segments(*state_);
  state_ms_ = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  shown_event_ = event;
}

void AllocatorPanels::draw_usage_strip(AppState& state, float x_offset, float width, float height) {
  const Timeline* timeline = state.timeline();
  if (usage_ == nullptr || timeline == nullptr) {
    ImGui::Dummy(ImVec2(width, height));
    return;
  }
  curve_.draw(state, *usage_, *timeline, x_offset, width, height);
}

void AllocatorPanels::draw_oom_markers(const AppState& state, float x, float y, float width, float height) {
  const Timeline* timeline = state.timeline();
  if (history_ == nullptr || timeline == nullptr) return;
  draw_oom_lines(state, *timeline, history_->ooms(), x, y, width, height);
}

void AllocatorPanels::draw_pane(AppState& state, float width, float height) {
  ImGui::BeginChild("allocator-pane", ImVec2(width, height), true);
  const int64_t event = focused_event(state);
  if (history_ != nullptr && state.cursor.placed()) refresh_state(event);
  if (ImGui::BeginTabBar("allocator-tabs")) {
    const auto tab_flags = [&](Tab tab) {
      return select_tab_ == tab ? ImGuiTabItemFlags_SetSelected : ImGuiTabItemFlags_None;
    };
    if (ImGui::BeginTabItem("Allocator state", nullptr, tab_flags(Tab::Allocator))) {
      if (!build_error_.empty()) {
        ImGui::TextColored(theme::kErrorText, "allocator history unavailable: %s", build_error_.c_str());
      } else if (history_ == nullptr) {
        ImGui::TextDisabled(device_ != nullptr ? "replaying the trace backwards from the segment snapshot..."
                                               : "no snapshot open");
      } else if (!state.cursor.placed() || !state_) {
        ImGui::TextDisabled(
            "place the time cursor (click the chart, Home/End, P for peak) to see the allocator");
      } else {
        allocator_.draw(*state_, layout_, event, state_ms_);
      }
      ImGui::EndTabItem();
    }
    if (ImGui::BeginTabItem("Events", nullptr, tab_flags(Tab::Events))) {
      const std::optional<int64_t> chosen =
          events_.draw(state.cursor.placed() ? std::optional<int64_t>(event) : std::nullopt);
      if (chosen) focus_event(state, *chosen);
      ImGui::EndTabItem();
    }
    if (ImGui::BeginTabItem("SQL", nullptr, tab_flags(Tab::Sql))) {
      sql_.draw();
      ImGui::EndTabItem();
    }
    ImGui::EndTabBar();
  }
  select_tab_ = Tab::None;
  ImGui::EndChild();
}

nlohmann::json AllocatorPanels::json(AppState& state) {
  nlohmann::json out = {{"sql", sql_.json()}};
  AllocatorHistory* built = history(true);
  if (built == nullptr || !state.cursor.placed()) return out;
  const int64_t event = focused_event(state);
  refresh_state(event);
  out["allocator"] = {{"event", event},
                      {"segments", state_->segments().size()},
                      {"blocks", state_->blocks().size()},
                      {"allocated", state_->allocated_bytes()},
                      {"reserved", state_->reserved_bytes()},
                      {"pending_free", state_->pending_free_bytes()},
                      {"rows", layout_.rows},
                      {"ooms", built->ooms().size()}};
  return out;
}

}  // namespace snapscope
