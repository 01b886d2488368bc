// The viewer: window, state and panels, and one frame of the UI. Interactive and headless
// runs (headless_runner.h) drive the same frame function, so tests see what users see.
#pragma once

#include "app/app_state.h"
#include "app/chart/category_strip.h"
#include "app/chart/chart_panel.h"
#include "app/chart/minimap.h"
#include "app/compare/compare_panel.h"
#include "app/compare/rank_table_panel.h"
#include "app/export_dialog.h"
#include "app/file_browser.h"
#include "app/gui_window.h"
#include "app/panels/allocator_pane.h"
#include "app/panels/analysis_pane.h"
#include "core/view/app_options.h"
#include "render/framebuffer_png.h"

namespace snapscope {

class Application {
 public:
  explicit Application(const AppOptions& options);

  int run_interactive();
  // Draws one frame into the back buffer; does not present. True if the chart re-streamed.
  bool render_frame();
  // Headless modes: renders until the chart shows the frame built for the current view (never a
  // shifted or scaled placeholder) and, unless only the chart is asked for, the panels built in
  // the background that change the layout (annotation lanes) are in place; presents every frame
  // but the last. True if it re-streamed.
  enum class Settle { Everything, ChartOnly };
  bool render_settled(Settle what = Settle::Everything);
  void present() { window_.present(); }
  // Keeps rendering until the background load finishes; false if it failed.
  bool wait_for_load();
  bool wait_for_compare();  // the same for run B of a comparison; false if it failed
  bool wait_for_ranks();    // snapscope DIR: until the rank table is read; false if it failed
  RankTablePanel& rank_table() { return rank_table_; }
  void fit_both_runs();  // the chart's y bounds hold both runs' peaks
  ComparePanel& compare_panel() { return analysis_pane_.compare_panel(); }
  void apply_view(const ViewSpec& spec);
  void apply_color_mode();
  void print_selection_json();  // one JSON line on stdout ("null" without a selection)
  void print_modules_json();    // the Modules tab's tree at the cursor, one JSON line
  void print_cursor_json();     // cursor, tree root, moment table totals and pane sizes, one JSON line
  void print_allocator_json();  // allocator state at the cursor and the SQL console result
  // The chart with its axes, from the back buffer of the last frame drawn (File > Export png).
  void write_chart_png(const std::string& path);
  // The rectangle write_chart_png writes (chart and axes), in framebuffer pixels.
  PixelRect chart_png_rect() const;

  AppState& state() { return state_; }
  Session& session() { return state_.session(); }
  ChartPanel& timeline() { return timeline_; }
  GuiWindow& window() { return window_; }
  AnalysisPane& analysis_pane() { return analysis_pane_; }
  AllocatorPane& allocator_pane() { return allocator_pane_; }
  // Scripts: a left click at window pixel (x, y) on whatever is drawn there (pointer moves
  // there, button down, button up: a frame each), then the pointer leaves again.
  void click_window(float x, float y);
  ExportDialog& export_dialog() { return export_dialog_; }

 private:
  // While a load runs: whether to draw (a progress frame, or the result that has just landed).
  bool progress_frame_due() const;
  struct ChartRect {
    double x = 0, y = 0, width = 0, height = 0;
    bool operator==(const ChartRect&) const = default;
  };
  ChartRect chart_rect() const;
  bool panels_settled();   // every background result the panels show has landed and been drawn
  void forget_session();   // before the active session is replaced
  void forget_compare();   // before run B is replaced or closed
  bool stacked_compare();  // run B is open and shown as its own chart below A's
  // The chart area: A's chart, and B's below it when stacked. Returns true on a re-stream.
  bool draw_charts(float chart_width, float height);
  void on_document_loaded();
  void draw_workspace();
  void handle_global_keys();
  // File > Export's PNG: written from a frame drawn after the dialog closed.
  void write_pending_png();

  AppOptions options_;
  AppState state_;  // before the window: its load starts while the window is created
  GuiWindow window_;
  FileBrowser browser_;
  ChartPanel timeline_;
  ChartPanel timeline_b_;  // run B's own chart (stacked comparison)
  Minimap minimap_;
  AnalysisPane analysis_pane_;
  AllocatorPane allocator_pane_;
  ExportDialog export_dialog_;
  CategoryStrip category_strip_;
  RankTablePanel rank_table_;
  const SessionCategories* colored_categories_ = nullptr;  // what the chart's colours come from
  int colored_database_generation_ = 0;  // the session's database_generation() when last coloured
  std::string pending_png_;
  int pending_png_frames_ = 0;  // frames to draw first (the dialog takes one to close)
  bool quit_ = false;
  bool frame_drawn_ = false;  // render_frame has drawn one: progress frames cost no shader compile
  // Pane sizes the splitters change, in pixels; 0 until the first frame sizes them from shares.
  struct PaneSizes {
    float inspector_width = 0, analysis_height = 0, allocator_width = 0;
  } panes_;
  bool inspector_shown_ = false;  // the last frame drew the inspector (a selection exists)
};

}  // namespace snapscope
