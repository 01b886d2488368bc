#include "app/cursor_panels.h"

#include <imgui.h>

#include <algorithm>
#include <exception>

#include "app/annotation_lanes.h"
#include "app/category_table_panel.h"
#include "app/database_wait.h"
#include "app/findings_panel.h"
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

constexpr float kPeakAnswerLines = 3;

// The findings' peak paragraph, the first thing a reader wants: a header that folds it away.
void draw_peak_answer(Session& state) {
  for (const Finding& finding : state.findings()) {
    if (finding.kind != FindingKind::Peak) continue;
    if (ImGui::CollapsingHeader((finding.title + "###peak-answer").c_str(), ImGuiTreeNodeFlags_DefaultOpen)) {
      // At most a few lines: a short pane keeps its room for the tabs (the rest scrolls).
      const float wrap = ImGui::GetContentRegionAvail().x - ImGui::GetStyle().ScrollbarSize;
      const float needed = ImGui::CalcTextSize(finding.text.c_str(), nullptr, false, wrap).y;
      const float most = kPeakAnswerLines * ImGui::GetTextLineHeight();
      ImGui::BeginChild("peak-answer", ImVec2(0, std::min(needed, most) + 2), false);
      ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
      ImGui::TextWrapped("%s", finding.text.c_str());
      ImGui::PopStyleColor();
      ImGui::EndChild();
    }
    return;
  }
}

}  // namespace

void CursorPanels::reset() {
  drawn_state_.reset();
  top_down_.reset();
  bottom_up_.reset();
  moment_.reset();
  search_.reset();
  phases_.reset();
  modules_.reset();
}

bool CursorPanels::settled(const Session& state) const {
  const CallTreePanel& tree = shown_tab_ == script::Tab::Name::BottomUp ? bottom_up_ : top_down_;
  const bool tree_shown =
      shown_tab_ == script::Tab::Name::CallTree || shown_tab_ == script::Tab::Name::BottomUp;
  const bool modules_shown = shown_tab_ == script::Tab::Name::Modules;
  return phases_.settled(state) && (!tree_shown || tree.settled()) &&
         (!modules_shown || state.module_tree_current());
}

void CursorPanels::before_frame(Session& state) { state.request_analysis(options()); }

void CursorPanels::draw_search_bar(Session& state) {
  const StackCatalog* stacks = state.stack_catalog().get();
  search_.draw(state, stacks, state.stack_catalog_loading());
}

float CursorPanels::lanes_height(Session& state) { return lanes_.height(phases_.table(state)); }

void CursorPanels::draw_lanes(Session& state, float chart_x, float chart_width) {
  lanes_.draw(state, phases_.table(state), chart_x, chart_width);
}

void CursorPanels::draw_analysis_pane(Session& state, float width, float height,
                                      const std::function<void()>& compare_tab) {
  ImGui::BeginChild("analysis-pane", ImVec2(width, height), true);
  draw_database_wait(state);
  const auto& analysis = state.analysis();
  const CursorAnalysis* shown =
      analysis && state.cursor.placed() && analysis->timeline == state.timeline() ? analysis.get() : nullptr;
  const uint64_t generation = state.analysis_generation();
  drawn_state_ = shown ? std::optional(shown->state) : std::nullopt;
  if (shown != nullptr) {
    const int64_t event = event_of_state(*shown->timeline, shown->state);
    const std::string at = event < 0 ? "before the first event" : "at event #" + std::to_string(event);
    ImGui::Text("%s: %s live in %s  (%.0f ms)", at.c_str(),
                format_bytes(static_cast<double>(shown->moment.live_bytes)).c_str(),
                format_count(shown->live.size(), "allocation").c_str(), shown->compute_ms);
    if (!state.analysis_matches(*shown, options()) || shown->state != state.cursor.state()) {
      ImGui::SameLine();
      ImGui::TextDisabled("updating...");
    }
  }
  draw_peak_answer(state);
  const StackSource* source = state.stack_catalog().get();
  const bool filter_before = filter_frames_;
  const LocationRule rule_before = location_rule_;
  using Tab = script::Tab::Name;
  const auto tab = [&](const char* label, Tab name) {
    const ImGuiTabItemFlags flags = pending_tab_ == name ? ImGuiTabItemFlags_SetSelected : 0;
    if (!ImGui::BeginTabItem(label, nullptr, flags)) return false;
    shown_tab_ = name;
    return true;
  };
  if (ImGui::BeginTabBar("analysis-tabs", ImGuiTabBarFlags_FittingPolicyScroll)) {
    if (tab("Call tree", Tab::CallTree)) {
      top_down_.draw(state, shown, generation, source, filter_frames_);
      ImGui::EndTabItem();
    }
    if (tab("Bottom-up", Tab::BottomUp)) {
      bottom_up_.draw(state, shown, generation, source, filter_frames_);
      ImGui::EndTabItem();
    }
    if (tab("Moment table", Tab::Moment)) {
      moment_.draw(state, shown, generation, location_rule_);
      ImGui::EndTabItem();
    }
    if (tab("Phases", Tab::Phases)) {
      phases_.draw(state);
      ImGui::EndTabItem();
    }
    if (tab("Categories", Tab::Categories)) {
      draw_category_table(state, shown);
      ImGui::EndTabItem();
    }
    if (tab("Modules", Tab::Modules)) {
      modules_.draw(state);
      ImGui::EndTabItem();
    }
    if (tab("Findings", Tab::Findings)) {
      draw_findings_panel(state);
      ImGui::EndTabItem();
    }
    if (compare_tab && tab("Compare", Tab::Compare)) {
      compare_tab();
      ImGui::EndTabItem();
    }
    ImGui::EndTabBar();
    pending_tab_.reset();
  }
  if (filter_frames_ != filter_before || location_rule_ != rule_before) state.request_analysis(options());
  ImGui::EndChild();
}

void CursorPanels::tree_search(const std::string& text) {
  (shown_tab_ == script::Tab::Name::BottomUp ? bottom_up_ : top_down_).set_query(text);
}

bool CursorPanels::search(Session& state, const std::string& text) {
  state.analysis_now(options());  // waits for the stack catalog
  const StackCatalog* stacks = state.stack_catalog().get();
  return stacks != nullptr && search_.search_now(state, *stacks, text);
}

namespace {

// The private pools view when it is shown: its pools, peak and, at the cursor, its total and
// each envelope. Null when the chart shows no pools.
nlohmann::json private_pools_json(const Session& state) {
  const SessionPools* pools = state.pools_shown();
  if (pools == nullptr) return nullptr;
  const PrivatePoolLayout& layout = *pools->layout;
  const size_t at = state.cursor.placed() ? state.cursor.state() : layout.peak_state();
  nlohmann::json list = nlohmann::json::array();
  for (uint32_t p = 0; p < layout.pool_count(); ++p) {
    list.push_back({{"pool", layout.pool(p).pool},
                    {"stream", layout.pool(p).stream},
                    {"envelope_bytes", layout.envelope_bytes(p, at)},
                    {"final_envelope_bytes", layout.envelope_bytes(p, layout.timeline().action_count())}});
  }
  return {{"peak_bytes", layout.peak_bytes()},
          {"peak_state", layout.peak_state()},
          {"state", at},
          {"total_bytes", layout.total_at_state(at)},
          {"pools", std::move(list)}};
}

}  // namespace

nlohmann::json CursorPanels::cursor_json(Session& state) {
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
  json["private_pools"] = private_pools_json(state);
  if (!state.cursor.placed()) return json;
  const CursorReadout readout =
      read_cursor(*timeline, device->blocks, device->reserved, state.cursor.state());
  json["state"] = readout.state;
  json["event"] = readout.event;
  json["time_us"] = readout.time_us ? nlohmann::json(*readout.time_us) : nlohmann::json();
  json["elapsed_us"] = readout.elapsed_us ? nlohmann::json(*readout.elapsed_us) : nlohmann::json();
  json["allocated"] = readout.allocated_bytes;
  json["reserved"] = readout.reserved_bytes;
  const auto analysis = state.analysis_now(options());
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
