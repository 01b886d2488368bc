// The live call tree at the cursor (top-down, or bottom-up by allocating location): rows with
// rolled-up bytes, count and share of live memory in heat colors, expand / collapse, expand a
// subtree, focus a subtree as the root, the frame filter toggle, and incremental search
// (/ then n / N). Selecting a node outlines its allocations on the chart. The tree itself comes
// from core/analysis; this only draws it and keeps view state (by frame path) across cursor moves.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <unordered_set>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/panels/pane_tab.h"
#include "core/analysis/call_tree_navigator.h"
#include "core/cursor/cursor_analysis.h"
#include "core/session/session.h"

namespace snapscope {

class CallTreePanel final : public PaneTab {
 public:
  explicit CallTreePanel(TreeDirection direction) : direction_(direction) {}

  void draw(TabFrame& frame) override {
    draw(frame.session, frame.shown, frame.generation, frame.session.stack_catalog().get(),
         frame.options.filter_frames);
  }
  bool settled(const Session&) const override { return settled(); }

  // `analysis` may be null (nothing computed yet); `generation` changes with every new result.
  // `filter_frames` is the shared memory_viz frame-filter toggle.
  void draw(Session& session, const CursorAnalysis* analysis, uint64_t generation, const StackSource* source,
            bool& filter_frames);
  void reset() override;
  const CallTree* tree() const { return tree_; }
  uint32_t shown_root() const { return navigator_ ? navigator_->root() : CallTree::kRoot; }
  // The tree search as the last frame drew it (for Ctrl+J): query, matches, the current match's
  // label and whether its row was inside the scrolled view.
  nlohmann::json search_json() const;
  // The typed query is applied and the view has finished scrolling to its match.
  bool settled() const {
    return navigator_ == nullptr ||
           (applied_query_ == query_ && scroll_to_ == kNoIndex && scroll_frames_left_ == 0);
  }
  // Types `text` into the search box (applied, revealed and scrolled to at the next draw).
  void set_query(const std::string& text);

 private:
  void bind(Session& session, const CursorAnalysis& analysis, uint64_t generation, const StackSource& source);
  void draw_toolbar(bool& filter_frames);
  void draw_search_box();
  void handle_keys();
  void draw_rows(Session& session);
  void draw_node(Session& session, uint32_t id, bool force_open, size_t& forced_budget);
  void draw_node_menu(uint32_t id);
  void draw_hidden_children(const CallTreeNode& node, size_t shown);
  void select(Session& session, uint32_t id);
  void reveal(uint32_t id);
  void apply_query();
  void refocus();

  TreeDirection direction_;
  const CursorAnalysis* analysis_ = nullptr;
  const CallTree* tree_ = nullptr;
  const StackSource* source_ = nullptr;
  uint64_t generation_ = 0;
  std::unique_ptr<CallTreeNavigator> navigator_;
  // View state by frame path, so it survives rebuilding the tree at a new cursor.
  std::vector<std::vector<FrameId>> focus_paths_;
  std::optional<std::vector<FrameId>> selected_path_;
  uint32_t selected_ = kNoIndex;
  char query_[128] = {};
  std::string applied_query_;
  std::unordered_set<uint32_t> matches_;
  bool focus_search_box_ = false;
  bool collapse_all_ = false;
  uint32_t expand_subtree_ = kNoIndex;
  std::unordered_set<uint32_t> reveal_;  // nodes to open this frame (path to a search match)
  uint32_t scroll_to_ = kNoIndex;
  int scroll_frames_left_ = 0;  // ImGui applies SetScrollHereY in the next frame
  bool current_match_visible_ = false;
};

}  // namespace snapscope
