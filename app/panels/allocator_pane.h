// Everything about the caching allocator itself, wired to the one time cursor: the allocator
// state at the focused event, the event list, the reserved / fragmentation strip under the chart,
// OOM markers on the chart, and the SQL console. The Session builds the history, the state at
// the focused event and the usage curve; these panels only draw and dispatch.
#pragma once

#include <optional>

#include <nlohmann/json.hpp>

#include "app/chart/reserved_curve.h"
#include "app/panels/allocator_state_panel.h"
#include "app/panels/event_list_panel.h"
#include "app/panels/sql_console_panel.h"
#include "core/allocator/allocator_history.h"
#include "core/allocator/event_focus.h"
#include "core/session/session.h"
#include "core/view/script.h"

namespace snapscope {

class AllocatorPane {
 public:
  // Forgets what belonged to the previous session (its history, curve and SQL connection).
  void reset();
  // Follows the session's device and takes its allocator history when it has been built.
  void before_frame(Session& session);
  // The reserved-memory and fragmentation strip, aligned with the chart's x axis.
  void draw_usage_strip(Session& session, float x_offset, float width, float height);
  // OOM markers over the chart rectangle (window pixels).
  void draw_oom_markers(const Session& session, float x, float y, float width, float height);
  // The tabbed pane: allocator state, event list, SQL console.
  void draw_pane(Session& session, float width, float height);
  void focus_sql_console() {
    sql_.request_focus();
    select_tab_ = Tab::Sql;
  }

  // Shows a tab of this pane from the next frame (scripts' `tab allocator|events|sql|settings`).
  void select_tab(script::Tab::Name tab);

  // Test hook (Ctrl+K): focused event, allocator totals and the SQL console's last result.
  nlohmann::json json(Session& session);

 private:
  enum class Tab { None, Allocator, Events, Sql, Settings };
  void on_new_device(Session& session);
  void open_events(const Session& session);
  void forget_device();
  void take_history(const Session& session);
  int64_t focused_event(const Session& session) const;
  void focus_event(Session& session, int64_t event);

  bool sql_open_ = false;                // the SQL console is connected to this session's database
  int database_generation_ = 0;          // the session's, when the panels above were connected
  std::optional<int> shown_device_;      // the device the panels below describe
  AllocatorHistory* history_ = nullptr;  // the session's, once built
  EventFocus focus_;                     // which event of the cursor's state the event list chose
  ReservedCurve curve_;
  AllocatorStatePanel allocator_;
  EventListPanel events_;
  SqlConsolePanel sql_;
  Tab select_tab_ = Tab::None;
};

}  // namespace snapscope
