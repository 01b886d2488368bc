// The analysis pane's Modules tab: live memory at the cursor by nn.Module call, a tree of calls
// (GPT.forward > Block.forward [k] > ...) beside "outside any module", backward and untraced.
// The Session builds the tree in the background (Session::module_tree); this panel keeps the
// selected row and draws. Clicking a row highlights its allocations on the chart.
#pragma once

#include <cstdint>
#include <optional>

#include <nlohmann/json.hpp>

#include "app/panels/pane_tab.h"
#include "core/session/session.h"

namespace snapscope {

class ModulePanel final : public PaneTab {
 public:
  void draw(TabFrame& frame) override { draw(frame.session); }
  bool settled(const Session& session) const override { return session.module_tree_current(); }
  void reset() override;  // a new session: the selected row belongs to the old one
  void draw(Session& session);
  // The cursor's tree as print-modules writes it (waits for it), with the state drawn last.
  nlohmann::json json(Session& session) const;

 private:
  size_t draw_row(Session& session, const SessionModuleTree& shown, size_t index);
  void select(Session& session, const SessionModuleTree& shown, uint32_t node);

  const void* drawn_ = nullptr;        // which tree was drawn last frame (never read through)
  std::optional<size_t> drawn_state_;  // and its state
  std::optional<uint32_t> selected_;   // ModuleInstances node of the clicked row
};

}  // namespace snapscope
