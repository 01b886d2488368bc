#include "app/panels/analysis_pane.h"

#include <imgui.h>

#include <algorithm>
#include <exception>
#include <stdexcept>

#include "app/chart/annotation_lanes.h"
#include "app/panels/database_wait.h"
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
void draw_peak_answer(Session& session) {
  for (const Finding& finding : session.findings()) {
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

AnalysisPane::AnalysisPane() {
  for (const script::Tab::Name name :
       {script::Tab::Name::CallTree, script::Tab::Name::BottomUp, script::Tab::Name::Phases,
        script::Tab::Name::Modules, script::Tab::Name::Compare})
    entry(name);  // the typed accessors' tabs are registered (throws at start-up otherwise)
}

const TabEntry& AnalysisPane::entry(script::Tab::Name name) const {
  for (const TabEntry& registered : tabs_) {
    if (registered.script_name == name) return registered;
  }
  throw std::logic_error("analysis pane: no tab registered for a script name");
}

CallTreePanel& AnalysisPane::shown_tree() const {
  return tab<CallTreePanel>(shown_tab_ == script::Tab::Name::BottomUp ? script::Tab::Name::BottomUp
                                                                      : script::Tab::Name::CallTree);
}

void AnalysisPane::reset() {
  drawn_state_.reset();
  for (TabEntry& registered : tabs_) registered.tab->reset();
  search_.reset();
}

bool AnalysisPane::settled(const Session& session) const {
  // The phases feed the annotation lanes over the chart: waited for whichever tab is shown.
  return tab<PhasePanel>(script::Tab::Name::Phases).settled(session) &&
         entry(shown_tab_).tab->settled(session);
}

void AnalysisPane::before_frame(Session& session) { session.request_analysis(options()); }

void AnalysisPane::draw_search_bar(Session& session) {
  const StackCatalog* stacks = session.stack_catalog().get();
  search_.draw(session, stacks, session.stack_catalog_loading());
}

float AnalysisPane::lanes_height(Session& session) {
  return AnnotationLanes::height(session.phase_depth_levels(phases().filter()));
}

void AnalysisPane::draw_lanes(Session& session, float chart_x, float chart_width) {
  lanes_.draw(session, phases().table(session), lanes_height(session), chart_x, chart_width);
}

void AnalysisPane::draw_analysis_pane(Session& session, float width, float height, Comparison* compared) {
  ImGui::BeginChild("analysis-pane", ImVec2(width, height), true);
  draw_database_wait(session);
  const auto& analysis = session.analysis();
  const CursorAnalysis* shown =
      analysis && session.cursor.placed() && analysis->timeline == session.timeline() ? analysis.get()
                                                                                      : nullptr;
  const uint64_t generation = session.analysis_generation();
  drawn_state_ = shown ? std::optional(shown->state) : std::nullopt;
  if (shown != nullptr) {
    const int64_t event = event_of_state(*shown->timeline, shown->state);
    const std::string at = event < 0 ? "before the first event" : "at event #" + std::to_string(event);
    ImGui::Text("%s: %s live in %s  (%.0f ms)", at.c_str(),
                format_bytes(static_cast<double>(shown->moment.live_bytes)).c_str(),
                format_count(shown->live.size(), "allocation").c_str(), shown->compute_ms);
    if (!session.analysis_matches(*shown, options()) || shown->state != session.cursor.state()) {
      ImGui::SameLine();
      ImGui::TextDisabled("updating...");
    }
  }
  draw_peak_answer(session);
  const AnalysisOptions options_before = options_;
  TabFrame frame{session, shown, generation, options_, compared};
  if (ImGui::BeginTabBar("analysis-tabs", ImGuiTabBarFlags_FittingPolicyScroll)) {
    for (TabEntry& registered : tabs_) {
      if (!registered.tab->available(frame)) continue;
      const bool asked = pending_tab_ == registered.script_name;
      if (!ImGui::BeginTabItem(registered.label, nullptr, asked ? ImGuiTabItemFlags_SetSelected : 0))
        continue;
      shown_tab_ = registered.script_name;
      registered.tab->draw(frame);
      ImGui::EndTabItem();
    }
    ImGui::EndTabBar();
    pending_tab_.reset();
  }
  if (!(options_ == options_before)) session.request_analysis(options());
  ImGui::EndChild();
}

void AnalysisPane::tree_search(const std::string& text) { shown_tree().set_query(text); }

bool AnalysisPane::search(Session& session, const std::string& text) {
  session.analysis_now(options());  // waits for the stack catalog
  const StackCatalog* stacks = session.stack_catalog().get();
  return stacks != nullptr && search_.search_now(session, *stacks, text);
}

namespace {

// The private pools view when it is shown: its pools, peak and, at the cursor, its total and
// each envelope. Null when the chart shows no pools.
nlohmann::json private_pools_json(const Session& session) {
  const SessionPools* pools = session.pools_shown();
  if (pools == nullptr) return nullptr;
  const PrivatePoolLayout& layout = *pools->layout;
  const size_t at = session.cursor.placed() ? session.cursor.state() : layout.peak_state();
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

nlohmann::json AnalysisPane::cursor_json(Session& session) {
  const DeviceDocument* device = session.device();
  const Timeline* timeline = session.timeline();
  if (device == nullptr || timeline == nullptr) {
    // Nothing loaded (yet, or the load failed): what the window says instead.
    return {{"loaded", false}, {"error", session.error()}, {"search_status", search_.shown_status()}};
  }
  nlohmann::json json = {{"placed", session.cursor.placed()},
                         {"action_count", timeline->action_count()},
                         {"peak_state", peak_state(*timeline)},
                         {"peak_bytes", timeline->peak_bytes()},
                         {"search", {{"query", search_.query()}, {"matches", search_.match_count()}}}};
  // What the panes showed in the last drawn frame, before this call computes anything: a result
  // that landed while no input came must already be on screen.
  json["pane_shown_state"] = drawn_state_ ? nlohmann::json(*drawn_state_) : nlohmann::json();
  json["tree_search"] = {{"top_down", tab<CallTreePanel>(script::Tab::Name::CallTree).search_json()},
                         {"bottom_up", tab<CallTreePanel>(script::Tab::Name::BottomUp).search_json()}};
  json["private_pools"] = private_pools_json(session);
  if (!session.cursor.placed()) return json;
  const CursorReadout readout =
      read_cursor(*timeline, device->blocks, device->reserved, session.cursor.state());
  json["state"] = readout.state;
  json["event"] = readout.event;
  json["time_us"] = readout.time_us ? nlohmann::json(*readout.time_us) : nlohmann::json();
  json["elapsed_us"] = readout.elapsed_us ? nlohmann::json(*readout.elapsed_us) : nlohmann::json();
  json["allocated"] = readout.allocated_bytes;
  json["reserved"] = readout.reserved_bytes;
  const auto analysis = session.analysis_now(options());
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
