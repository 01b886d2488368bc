#include "app/cursor_panels.h"

#include <imgui.h>

#include <exception>

#include "app/annotation_lanes.h"
#include "core/analysis/state_mapping.h"
#include "core/cursor/cursor_readout.h"
#include "core/util/background_priority.h"
#include "core/util/format.h"

namespace snapscope {
namespace {

uint64_t untraced_bytes(const CallTree& tree) {
  for (uint32_t child : tree.node(CallTree::kRoot).children) {
    if (tree.node(child).kind == CallTreeNodeKind::Untraced) return tree.node(child).bytes;
  }
  return 0;
}

}  // namespace

void CursorPanels::set_ready_callback(std::function<void()> ready) {
  ready_ = ready;
  worker_.set_ready_callback(ready);
  phases_.set_ready_callback(std::move(ready));
}

bool CursorPanels::background_pending() const {
  return (catalog_loading_.valid() && !catalog_) || worker_.busy() || worker_.has_result();
}

bool CursorPanels::result_waiting() const {
  const bool catalog_landed = catalog_loading_.valid() && !catalog_ &&
                              catalog_loading_.wait_for(std::chrono::seconds(0)) == std::future_status::ready;
  return catalog_landed || worker_.has_result();
}

void CursorPanels::before_frame(AppState& state) {
  // The loader swaps the document in while polling; the worker must not be reading it then.
  if (state.loader().busy()) {
    worker_.wait_idle();
    phases_.wait_idle();
    requested_.reset();
  }
  if (state.document() != document_) on_new_document(state);
  if (auto result = worker_.take_result()) {
    analysis_ = std::move(result);
    ++generation_;
  }
  request_analysis(state);
}

void CursorPanels::on_new_document(AppState& state) {
  worker_.wait_idle();
  document_ = state.document();
  analysis_.reset();
  requested_.reset();
  catalog_.reset();
  catalog_loading_ = {};
  top_down_.reset();
  bottom_up_.reset();
  moment_.reset();
  search_.reset();
  phases_.open(document_ ? document_->elements_db().string() : std::string());
  if (document_ == nullptr) return;
  const std::string db = document_->elements_db().string();
  catalog_loading_ = start_bulk_work([db] { return catalog_from_elements_db(db); }).share();
}

const StackCatalog* CursorPanels::catalog(bool wait) {
  if (catalog_ || !catalog_loading_.valid()) return catalog_.get();
  if (!wait && catalog_loading_.wait_for(std::chrono::seconds(0)) != std::future_status::ready)
    return nullptr;
  try {
    catalog_ = catalog_loading_.get();
  } catch (const std::exception&) {
    catalog_loading_ = {};  // stays unavailable; the panels say so
  }
  return catalog_.get();
}

void CursorPanels::request_analysis(AppState& state) {
  const Timeline* timeline = state.timeline();
  if (timeline == nullptr || !state.cursor.placed() || state.loader().busy() || catalog(false) == nullptr)
    return;
  AnalysisRequest request{timeline,       catalog_,       state.cursor.state(),
                          filter_frames_, location_rule_, wrapper_libraries_generation()};
  if (requested_ && *requested_ == request) return;
  requested_ = request;
  worker_.request(std::move(request));
}

std::shared_ptr<const CursorAnalysis> CursorPanels::current_for(AppState& state) {
  const Timeline* timeline = state.timeline();
  if (timeline == nullptr || !state.cursor.placed() || catalog(true) == nullptr) return nullptr;
  const auto matches = [&](const std::shared_ptr<const CursorAnalysis>& analysis) {
    return analysis && analysis->timeline == timeline && analysis->state == state.cursor.state() &&
           analysis->filtered == filter_frames_ && analysis->location_rule == location_rule_;
  };
  if (matches(analysis_)) return analysis_;
  worker_.wait_idle();
  if (auto result = worker_.take_result(); matches(result)) {
    analysis_ = std::move(result);
  } else {
    AnalysisRequest request{timeline,       catalog_,       state.cursor.state(),
                            filter_frames_, location_rule_, wrapper_libraries_generation()};
    analysis_ = AnalysisWorker::compute(request);
    requested_ = request;
  }
  ++generation_;
  return analysis_;
}

void CursorPanels::draw_search_bar(AppState& state) {
  const StackCatalog* stacks = catalog(false);
  search_.draw(state, stacks, stacks == nullptr && catalog_loading_.valid());
}

float CursorPanels::lanes_height(const AppState& state) { return lanes_.height(phases_.table(state)); }

void CursorPanels::draw_lanes(AppState& state, float chart_x, float chart_width) {
  lanes_.draw(state, phases_.table(state), chart_x, chart_width);
}

void CursorPanels::draw_analysis_pane(AppState& state, float width, float height) {
  ImGui::BeginChild("analysis-pane", ImVec2(width, height), true);
  const CursorAnalysis* shown = analysis_ && state.cursor.placed() && analysis_->timeline == state.timeline()
                                    ? analysis_.get()
                                    : nullptr;
  drawn_state_ = shown ? std::optional(shown->state) : std::nullopt;
  if (shown != nullptr) {
    const int64_t event = event_of_state(*shown->timeline, shown->state);
    const std::string at = event < 0 ? "before the first event" : "at event #" + std::to_string(event);
    ImGui::Text("%s: %s live in %s allocations  (%.0f ms)", at.c_str(),
                format_bytes(static_cast<double>(shown->moment.live_bytes)).c_str(),
                format_grouped(shown->live.size()).c_str(), shown->compute_ms);
    if (worker_.busy() || shown->state != state.cursor.state()) {
      ImGui::SameLine();
      ImGui::TextDisabled("updating...");
    }
  }
  const StackSource* source = catalog_.get();
  const bool filter_before = filter_frames_;
  const LocationRule rule_before = location_rule_;
  using Tab = script::Tab::Name;
  const auto tab = [&](const char* label, Tab name) {
    const ImGuiTabItemFlags flags = pending_tab_ == name ? ImGuiTabItemFlags_SetSelected : 0;
    if (!ImGui::BeginTabItem(label, nullptr, flags)) return false;
    shown_tab_ = name;
    return true;
  };
  if (ImGui::BeginTabBar("analysis-tabs")) {
    if (tab("Call tree", Tab::CallTree)) {
      top_down_.draw(state, shown, generation_, source, filter_frames_);
      ImGui::EndTabItem();
    }
    if (tab("Bottom-up", Tab::BottomUp)) {
      bottom_up_.draw(state, shown, generation_, source, filter_frames_);
      ImGui::EndTabItem();
    }
    if (tab("Moment table", Tab::Moment)) {
      moment_.draw(state, shown, generation_, location_rule_);
      ImGui::EndTabItem();
    }
    if (tab("Phases", Tab::Phases)) {
      phases_.draw(state);
      ImGui::EndTabItem();
    }
    ImGui::EndTabBar();
    pending_tab_.reset();
  }
  if (filter_frames_ != filter_before || location_rule_ != rule_before) request_analysis(state);
  ImGui::EndChild();
}

void CursorPanels::tree_search(const std::string& text) {
  (shown_tab_ == script::Tab::Name::BottomUp ? bottom_up_ : top_down_).set_query(text);
}

bool CursorPanels::search(AppState& state, const std::string& text) {
  const StackCatalog* stacks = catalog(true);
  return stacks != nullptr && search_.search_now(state, *stacks, text);
}

nlohmann::json CursorPanels::cursor_json(AppState& state) {
  const DeviceDocument* device = state.device();
  const Timeline* timeline = state.timeline();
  if (device == nullptr || timeline == nullptr) {
    // Nothing loaded (yet, or the load failed): what the window says instead.
    return {{"loaded", false}, {"error", state.error()}, {"search_status", search_.shown_status()}};
  }
  nlohmann::json json = {{"placed", state.cursor.placed()},
                         {"action_count", timeline->action_count()},
                         {"peak_state", peak_state(*timeline)},
                         {"peak_bytes", timeline->peak_bytes()},
                         {"search", {{"query", search_.query()}, {"matches", search_.match_count()}}}};
  // What the panes showed in the last drawn frame, before this call computes anything: a result
  // that landed while no input came must already be on screen.
  json["pane_shown_state"] = drawn_state_ ? nlohmann::json(*drawn_state_) : nlohmann::json();
  json["tree_search"] = {{"top_down", top_down_.search_json()}, {"bottom_up", bottom_up_.search_json()}};
  if (!state.cursor.placed()) return json;
  const CursorReadout readout =
      read_cursor(*timeline, device->blocks, device->segments, state.cursor.state());
  json["state"] = readout.state;
  json["event"] = readout.event;
  json["time_us"] = readout.time_us ? nlohmann::json(*readout.time_us) : nlohmann::json();
  json["allocated"] = readout.allocated_bytes;
  json["reserved"] = readout.reserved_bytes;
  const auto analysis = current_for(state);
  if (!analysis) return json;
  uint64_t rows_sum = 0;
  for (const MomentRow& row : analysis->moment.rows) rows_sum += row.bytes;
  json["tree"] = {{"root_bytes", analysis->top_down.total_bytes()},
                  {"root_count", analysis->top_down.node(CallTree::kRoot).count},
                  {"nodes", analysis->top_down.size()},
                  {"bottom_up_root_bytes", analysis->bottom_up.total_bytes()},
                  {"untraced_bytes", untraced_bytes(analysis->top_down)}};
  json["moment"] = {{"rows", analysis->moment.rows.size()},
                    {"rows_sum", rows_sum},
                    {"live_bytes", analysis->moment.live_bytes},
                    {"top", analysis->moment.rows.empty() ? "" : analysis->moment.rows.front().label}};
  json["compute_ms"] = analysis->compute_ms;
  return json;
}

}  // namespace snapscope
