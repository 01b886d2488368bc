// Everything about the caching allocator itself, wired to the one time cursor: the allocator
// state at the focused event, the event list, the reserved / fragmentation strip under the chart,
// OOM markers on the chart, and the SQL console. The history is built in the background per
// device from elements.db; panels only draw and dispatch, numbers come from core/allocator and
// core/sql.
#pragma once

#include <atomic>
#include <future>
#include <memory>
#include <optional>

#include <nlohmann/json.hpp>

#include "app/allocator_state_panel.h"
#include "app/app_state.h"
#include "app/event_list_panel.h"
#include "app/reserved_curve.h"
#include "app/sql_console_panel.h"
#include "core/allocator/allocator_history.h"
#include "core/allocator/event_focus.h"
#include "core/allocator/segment_layout.h"
#include "core/allocator/usage_curve.h"

namespace snapscope {

class AllocatorPanels {
 public:
  ~AllocatorPanels();
  void before_frame(AppState& state);
  // The reserved-memory and fragmentation strip, aligned with the chart's x axis.
  void draw_usage_strip(AppState& state, float x_offset, float width, float height);
  // OOM markers over the chart rectangle (window pixels).
  void draw_oom_markers(const AppState& state, float x, float y, float width, float height);
  // The tabbed pane: allocator state, event list, SQL console.
  void draw_pane(AppState& state, float width, float height);
  void focus_sql_console() {
    sql_.request_focus();
    select_tab_ = Tab::Sql;
  }

  // Test hook (Ctrl+K): focused event, allocator totals and the SQL console's last result.
  nlohmann::json json(AppState& state);

 private:
  enum class Tab { None, Allocator, Events, Sql };
  void on_new_device(AppState& state);
  void cancel_build();
  AllocatorHistory* history(bool wait);
  int64_t focused_event(const AppState& state) const;
  void focus_event(AppState& state, int64_t event);
  void refresh_state(int64_t event);

  const Document* document_ = nullptr;
  const DeviceDocument* device_ = nullptr;
  std::shared_ptr<std::atomic<bool>> cancel_;
  std::future<std::unique_ptr<AllocatorHistory>> building_;
  std::unique_ptr<AllocatorHistory> history_;
  std::string build_error_;
  std::unique_ptr<UsageCurve> usage_;
  EventFocus focus_;
  std::optional<int64_t> shown_event_;  // the event state_ / layout_ describe
  std::optional<AllocatorState> state_;
  SegmentLayout layout_;
  double state_ms_ = 0;
  ReservedCurve curve_;
  AllocatorPanel allocator_;
  EventListPanel events_;
  SqlConsolePanel sql_;
  Tab select_tab_ = Tab::None;
};

}  // namespace snapscope
