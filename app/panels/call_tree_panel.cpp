#include "app/panels/call_tree_panel.h"

#include <GLFW/glfw3.h>
#include <imgui.h>

#include <cstdio>

#include "app/widgets/location_text.h"
#include "app/widgets/table_columns.h"
#include "app/widgets/theme.h"
#include "core/cursor/call_tree_members.h"
#include "core/cursor/element_marks.h"
#include "core/util/format.h"

namespace snapscope {
namespace {

constexpr size_t kMaxChildrenShown = 200;  // wider nodes end in one "N more" row
constexpr size_t kMaxForcedOpen = 2000;    // "expand subtree" opens at most this many nodes

// A stable ImGui id per tree step: the frame id, or a fixed value for the untraced node.
int step_id(const CallTreeNode& node) {
  if (node.kind == CallTreeNodeKind::Root) return -1;
  if (node.kind == CallTreeNodeKind::Untraced) return -2;
  return static_cast<int>(node.frame);
}

}  // namespace

void CallTreePanel::reset() {
  analysis_ = nullptr;
  tree_ = nullptr;
  navigator_.reset();
  focus_paths_.clear();
  selected_path_.reset();
  selected_ = kNoIndex;
  matches_.clear();
  applied_query_.clear();
  generation_ = 0;
}

void CallTreePanel::bind(Session& session, const CursorAnalysis& analysis, uint64_t generation,
                         const StackSource& source) {
  analysis_ = &analysis;
  tree_ = direction_ == TreeDirection::TopDown ? &analysis.top_down : &analysis.bottom_up;
  source_ = &source;
  generation_ = generation;
  navigator_ = std::make_unique<CallTreeNavigator>(*tree_, source);
  refocus();
  selected_ = kNoIndex;
  if (selected_path_) {
    const auto node = node_at_path(*tree_, *selected_path_);
    if (node) {
      select(session, *node);
    } else {
      session.highlights.group.clear();  // that call path holds nothing at this moment
    }
  }
  applied_query_.clear();  // re-run the search on the new tree
}

void CallTreePanel::refocus() {
  navigator_->reset_focus();
  for (const std::vector<FrameId>& path : focus_paths_) {
    const auto node = node_at_path(*tree_, path);
    if (!node) break;
    navigator_->focus(*node);
  }
}

void CallTreePanel::select(Session& session, uint32_t id) {
  selected_ = id;
  selected_path_ = node_path(*tree_, id);
  const Timeline* timeline = session.timeline();
  if (timeline == nullptr) return;
  const std::vector<uint32_t> members = elements_under(*tree_, id, analysis_->live, *source_);
  session.highlights.group.assign(timeline->element_count(), members);
}

void CallTreePanel::reveal(uint32_t id) {
  for (uint32_t node : tree_->path_to(id)) reveal_.insert(node);
  scroll_to_ = id;
}

void CallTreePanel::apply_query() {
  if (applied_query_ == query_) return;
  applied_query_ = query_;
  navigator_->set_query(applied_query_);
  matches_ = {navigator_->matches().begin(), navigator_->matches().end()};
  if (navigator_->current_match() != kNoIndex) reveal(navigator_->current_match());
}

void CallTreePanel::handle_keys() {
  if (ImGui::GetIO().WantTextInput || ImGui::GetIO().KeyCtrl) return;
  if (ImGui::IsKeyPressed(GLFW_KEY_SLASH, false)) focus_search_box_ = true;
  if (applied_query_.empty() || !ImGui::IsKeyPressed(GLFW_KEY_N)) return;
  const uint32_t match = ImGui::GetIO().KeyShift ? navigator_->previous_match() : navigator_->next_match();
  if (match != kNoIndex) reveal(match);
}

void CallTreePanel::draw_search_box() {
  ImGui::SetNextItemWidth(220);
  if (focus_search_box_) {
    ImGui::SetKeyboardFocusHere();
    focus_search_box_ = false;
  }
  const bool entered = ImGui::InputTextWithHint("##tree-search", "/ search frames", query_, sizeof query_,
                                                ImGuiInputTextFlags_EnterReturnsTrue);
  apply_query();
  if (entered) {
    const uint32_t match = navigator_->next_match();
    if (match != kNoIndex) reveal(match);
  }
  ImGui::SameLine();
  if (applied_query_.empty()) {
    ImGui::TextDisabled("n / N: next / previous match");
  } else {
    const auto& matches = navigator_->matches();
    size_t index = 0;
    while (index < matches.size() && matches[index] != navigator_->current_match()) ++index;
    ImGui::Text("%zu/%zu", matches.empty() ? 0 : index + 1, matches.size());
  }
}

void CallTreePanel::draw_toolbar(bool& filter_frames) {
  ImGui::Checkbox("filter frames", &filter_frames);
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip(
        "hide the allocator, dispatcher, boxing, autograd engine, CPython and unresolved ?? frames\n"
        "(and start the bottom-up tree at each allocation's location); off: every frame");
  ImGui::SameLine();
  if (ImGui::SmallButton("collapse all")) collapse_all_ = true;
  ImGui::SameLine();
  ImGui::BeginDisabled(selected_ == kNoIndex);
  if (ImGui::SmallButton("expand subtree")) expand_subtree_ = selected_;
  ImGui::SameLine();
  if (ImGui::SmallButton("focus")) {
    navigator_->focus(selected_);
    focus_paths_.push_back(node_path(*tree_, selected_));
  }
  ImGui::EndDisabled();
  ImGui::SameLine();
  ImGui::BeginDisabled(focus_paths_.empty());
  if (ImGui::SmallButton("unfocus")) {
    navigator_->unfocus();
    focus_paths_.pop_back();
  }
  ImGui::EndDisabled();
  ImGui::SameLine();
  draw_search_box();
  if (!focus_paths_.empty()) {
    ImGui::TextDisabled("focused on: %s", tree_->label(navigator_->root(), *source_).c_str());
  }
}

void CallTreePanel::draw_node_menu(uint32_t id) {
  if (!ImGui::BeginPopupContextItem("node-menu")) return;
  if (ImGui::MenuItem("Expand subtree")) expand_subtree_ = id;
  if (ImGui::MenuItem("Focus on this subtree")) {
    navigator_->focus(id);
    focus_paths_.push_back(node_path(*tree_, id));
  }
  if (ImGui::MenuItem("Copy location")) ImGui::SetClipboardText(tree_->label(id, *source_).c_str());
  if (ImGui::MenuItem("Copy subtree as text")) {
    ImGui::SetClipboardText(call_tree_text(*tree_, *source_, id, 64, 0.0).c_str());
  }
  ImGui::EndPopup();
}

void CallTreePanel::draw_hidden_children(const CallTreeNode& node, size_t shown) {
  uint64_t bytes = 0, count = 0;
  for (size_t i = shown; i < node.children.size(); ++i) {
    bytes += tree_->node(node.children[i]).bytes;
    count += tree_->node(node.children[i]).count;
  }
  ImGui::TableNextRow();
  ImGui::TableNextColumn();
  ImGui::Indent();
  ImGui::TextDisabled("... %zu more callees", node.children.size() - shown);
  ImGui::Unindent();
  ImGui::TableNextColumn();
  ImGui::TextDisabled("%s", format_bytes(static_cast<double>(bytes)).c_str());
  ImGui::TableNextColumn();
  ImGui::TableNextColumn();
  ImGui::TextDisabled("%s", format_grouped(count).c_str());
}

void CallTreePanel::draw_node(Session& session, uint32_t id, bool force_open, size_t& forced_budget) {
  const CallTreeNode& node = tree_->node(id);
  ImGui::TableNextRow();
  ImGui::TableNextColumn();
  ImGui::PushID(step_id(node));
  const bool leaf = node.children.empty();
  ImGuiTreeNodeFlags flags = ImGuiTreeNodeFlags_OpenOnArrow | ImGuiTreeNodeFlags_OpenOnDoubleClick |
                             ImGuiTreeNodeFlags_SpanFullWidth;
  if (leaf) flags |= ImGuiTreeNodeFlags_Leaf | ImGuiTreeNodeFlags_NoTreePushOnOpen;
  if (id == selected_) flags |= ImGuiTreeNodeFlags_Selected;
  if (id == navigator_->root()) ImGui::SetNextItemOpen(true, ImGuiCond_Once);
  const bool forced = (force_open || id == expand_subtree_) && forced_budget > 0;
  if (forced) --forced_budget;
  if (forced || reveal_.count(id) != 0) ImGui::SetNextItemOpen(true);
  const bool is_match = matches_.count(id) != 0;
  if (is_match) ImGui::PushStyleColor(ImGuiCol_Text, theme::kTreeMatch);
  const std::string label = tree_->label(id, *source_);
  const std::string shown_label =
      elide_location(label, ImGui::GetContentRegionAvail().x - ImGui::GetTreeNodeToLabelSpacing());
  const bool open = ImGui::TreeNodeEx("##node", flags, "%s", shown_label.c_str());
  if (is_match) ImGui::PopStyleColor();
  full_text_tooltip(label, shown_label);
  if (id == navigator_->current_match()) current_match_visible_ = ImGui::IsItemVisible();
  if (ImGui::IsItemClicked() && !ImGui::IsItemToggledOpen()) select(session, id);
  if (id == scroll_to_) {
    ImGui::SetScrollHereY(0.3f);
    scroll_to_ = kNoIndex;
    scroll_frames_left_ = 2;
  }
  draw_node_menu(id);
  const double share = tree_->total_bytes() == 0
                           ? 0
                           : static_cast<double>(node.bytes) / static_cast<double>(tree_->total_bytes());
  ImGui::TableNextColumn();
  ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(theme::from_rgb(heat_color(share))), "%s",
                     format_bytes(static_cast<double>(node.bytes)).c_str());
  ImGui::TableNextColumn();
  ImGui::Text("%6.2f%%", tree_->percent_of_total(id));
  ImGui::TableNextColumn();
  ImGui::TextUnformatted(format_grouped(node.count).c_str());
  if (open && !leaf) {
    const size_t shown = std::min(node.children.size(), kMaxChildrenShown);
    for (size_t i = 0; i < shown; ++i) draw_node(session, node.children[i], forced, forced_budget);
    if (shown < node.children.size()) draw_hidden_children(node, shown);
    ImGui::TreePop();
  }
  ImGui::PopID();
}

void CallTreePanel::draw_rows(Session& session) {
  if (scroll_frames_left_ > 0) --scroll_frames_left_;
  const ImGuiTableFlags flags = ImGuiTableFlags_ScrollY | ImGuiTableFlags_RowBg |
                                ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_Resizable;
  if (!ImGui::BeginTable("tree", 4, flags)) return;
  ImGui::TableSetupScrollFreeze(0, 1);
  ImGui::TableSetupColumn(direction_ == TreeDirection::TopDown ? "Call path (caller -> callee)"
                                                               : "Allocating location (callee -> callers)",
                          ImGuiTableColumnFlags_WidthStretch);
  ImGui::TableSetupColumn("Bytes", ImGuiTableColumnFlags_WidthFixed, fit_column_width("Bytes", "999.99 MiB"));
  ImGui::TableSetupColumn("% live", ImGuiTableColumnFlags_WidthFixed, fit_column_width("% live", "100.00%"));
  ImGui::TableSetupColumn("Count", ImGuiTableColumnFlags_WidthFixed, fit_column_width("Count", "999,999"));
  ImGui::TableHeadersRow();
  if (collapse_all_) {
    ImGui::GetStateStorage()->Clear();  // tree-node open states live in this window's storage
    collapse_all_ = false;
  }
  size_t forced_budget = kMaxForcedOpen;
  current_match_visible_ = false;  // set again if the match's row is drawn inside the view
  draw_node(session, navigator_->root(), false, forced_budget);
  expand_subtree_ = kNoIndex;
  reveal_.clear();
  ImGui::EndTable();
}

void CallTreePanel::set_query(const std::string& text) {
  std::snprintf(query_, sizeof query_, "%s", text.c_str());
}

nlohmann::json CallTreePanel::search_json() const {
  if (navigator_ == nullptr) return nullptr;
  const uint32_t current = navigator_->current_match();
  return {
      {"query", applied_query_},
      {"matches", navigator_->matches().size()},
      {"current", current == kNoIndex ? nlohmann::json() : nlohmann::json(tree_->label(current, *source_))},
      {"current_visible", current != kNoIndex && current_match_visible_}};
}

void CallTreePanel::draw(Session& session, const CursorAnalysis* analysis, uint64_t generation,
                         const StackSource* source, bool& filter_frames) {
  if (analysis == nullptr || source == nullptr) {
    ImGui::TextDisabled(session.cursor.placed()
                            ? "computing..."
                            : "place the time cursor (click empty chart space, or P for the peak)");
    return;
  }
  if (generation != generation_ || analysis != analysis_) bind(session, *analysis, generation, *source);
  handle_keys();
  draw_toolbar(filter_frames);
  draw_rows(session);
}

}  // namespace snapscope
