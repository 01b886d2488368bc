#include "app/panels/search_panel.h"

#include <GLFW/glfw3.h>
#include <imgui.h>

#include <cstdio>

#include "app/chart/cursor_controls.h"
#include "app/widgets/theme.h"

namespace snapscope {
namespace {

constexpr auto kTypingPause = std::chrono::milliseconds(150);  // search once typing pauses
const char* const kModeNames[] = {"auto", "frame", "address", "metadata"};

}  // namespace

void SearchPanel::reset() {
  searched_.clear();
  searched_in_ = nullptr;
  matches_.clear();
  invalid_ = false;
}

void SearchPanel::refresh(Session& session, const StackCatalog& catalog) {
  const Timeline* timeline = session.timeline();
  searched_ = text_;
  searched_mode_ = mode_;
  searched_in_ = timeline;
  matches_.clear();
  const auto query = parse_search_query(searched_, static_cast<SearchMode>(mode_));
  invalid_ = !query && !searched_.empty();
  if (query && timeline != nullptr) {
    matches_ = query->kind == SearchQuery::Kind::Metadata ? session.elements_with_metadata(query->text)
                                                          : search_allocations(*timeline, catalog, *query);
  }
  if (timeline == nullptr || matches_.empty()) {
    session.highlights.search.clear();
  } else {
    session.highlights.search.assign(timeline->element_count(), matches_);
  }
}

bool SearchPanel::search_now(Session& session, const StackCatalog& catalog, const std::string& text) {
  std::snprintf(text_, sizeof text_, "%s", text.c_str());
  refresh(session, catalog);
  return true;
}

void SearchPanel::step(Session& session, bool forward) {
  const Timeline* timeline = session.timeline();
  if (timeline == nullptr || matches_.empty()) return;
  const size_t at = session.cursor.placed() ? session.cursor.state() : 0;
  const auto match = forward ? next_match(*timeline, matches_, at, session.selected())
                             : previous_match(*timeline, matches_, at, session.selected());
  if (!match) return;
  session.cursor.place(*timeline, timeline->alloc_state(*match));
  session.select(*match);
  keep_cursor_in_view(session);
}

void SearchPanel::draw(Session& session, const StackCatalog* catalog, bool loading) {
  const ImGuiIO& io = ImGui::GetIO();
  if (io.KeyCtrl && ImGui::IsKeyPressed(GLFW_KEY_F, false)) focus_ = true;
  if (focus_) {
    ImGui::SetKeyboardFocusHere();
    focus_ = false;
  }
  ImGui::SetNextItemWidth(300);
  if (ImGui::InputTextWithHint("##search", "search frames, address, meta:text (Ctrl+F)", text_,
                               sizeof text_)) {
    edited_at_ = std::chrono::steady_clock::now();
  }
  // Enter ends a single-line edit: the field deactivates in the frame the key goes down.
  const bool enter = ImGui::IsItemDeactivated() && ImGui::IsKeyPressed(GLFW_KEY_ENTER);
  ImGui::SameLine();
  ImGui::SetNextItemWidth(90);
  ImGui::Combo("##search-mode", &mode_, kModeNames, IM_ARRAYSIZE(kModeNames));
  const bool stale = searched_ != text_ || searched_mode_ != mode_ || searched_in_ != session.timeline();
  if (catalog != nullptr && stale &&
      (enter || std::chrono::steady_clock::now() - edited_at_ > kTypingPause)) {
    refresh(session, *catalog);
  }
  ImGui::SameLine();
  shown_status_.clear();
  if (catalog == nullptr) {
    if (loading) shown_status_ = "loading stacks...";
    ImGui::TextDisabled("%s", shown_status_.c_str());
  } else if (invalid_) {
    shown_status_ = "not a hex address";
    ImGui::TextColored(theme::kSearchStatusText, "%s", shown_status_.c_str());
  } else if (!searched_.empty()) {
    shown_status_ = std::to_string(matches_.size()) + " matches";
    ImGui::TextUnformatted(shown_status_.c_str());
  }
  ImGui::SameLine();
  ImGui::BeginDisabled(matches_.empty());
  const bool previous = ImGui::ArrowButton("##previous-match", ImGuiDir_Left) ||
                        (!io.WantTextInput && ImGui::IsKeyPressed(GLFW_KEY_F3) && io.KeyShift) ||
                        (enter && io.KeyShift);
  ImGui::SameLine();
  const bool next = ImGui::ArrowButton("##next-match", ImGuiDir_Right) ||
                    (!io.WantTextInput && ImGui::IsKeyPressed(GLFW_KEY_F3) && !io.KeyShift) ||
                    (enter && !io.KeyShift);
  ImGui::EndDisabled();
  if (previous || next) step(session, next);
}

}  // namespace snapscope
