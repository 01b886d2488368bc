// snapscope-term's screen: the timeline chart above, the status line at the cursor, and one pane
// below (call tree top-down or bottom-up, moment table with its allocations, categories with
// their reasons, findings, and with a second run the comparison). Every number comes from the
// Session (core/session), the same one the viewer draws: this file only lays out and routes keys.
#pragma once

#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/compare/run_alignment.h"
#include "core/document/document_loader.h"
#include "core/session/comparison.h"
#include "core/session/session.h"
#include "core/util/arg_parser.h"
#include "term/moment_pane.h"
#include "term/term_bench.h"
#include "term/terminal.h"
#include "term/text_pane.h"
#include "term/timeline_chart.h"
#include "term/tree_pane.h"

namespace snapscope::term {

struct TermOptions {
  std::string path;          // run A
  std::string compare_path;  // run B, or empty
  int device = -1;           // -1: the first with data
  bool help = false;
  bool bench = false;  // --bench: replay term_bench's key walk and report its timings
};

// argv without the program name; throws UsageError naming what is wrong.
TermOptions parse_term_options(std::span<const std::string_view> args);
// The command line's table (bound to options never read: for help and its tests) and its help.
ArgTable term_arg_table();
const std::string& term_usage();

// Opens the file(s) with a progress line and runs the screen until 'q', SIGINT or SIGTERM.
// Returns the exit code; throws std::runtime_error("<file>: <reason>") when a file cannot be opened.
// With options.bench it replays term_bench's key walk instead and leaves its timings in *bench.
int run_terminal(Terminal& terminal, const TermOptions& options, KeyTimings* bench = nullptr);

// The comparison's rows: by location, by category or by call path (g cycles).
enum class DiffRows { Location, Category, CallPath };

class TermApp {
 public:
  // `loaders` may still be writing the sessions' databases (a pickle shown as soon as its
  // timelines exist): the app keeps them, and joins them before the sessions go.
  TermApp(Terminal& terminal, std::unique_ptr<Session> a, std::unique_ptr<Session> b,
          std::vector<std::unique_ptr<DocumentLoader>> loaders = {});
  int run();
  KeyTimings run_bench();  // term_bench.cpp

 private:
  enum class Pane { TopDown, BottomUp, Moment, Categories, Findings, Compare };
  enum class Focus { Chart, Pane };

  bool poll();           // true when a background result arrived (a frame is owed)
  bool settled() const;  // every session's background work done and the cursor's answer in
  void wait_settled();
  void draw();
  void draw_title() const;
  void draw_status(int row) const;
  void draw_tabs(int row) const;
  void draw_hint(int row) const;
  void draw_pane(Rect area);
  void draw_help() const;
  void handle(int ch);
  bool chart_key(int ch);
  bool global_key(int ch);
  void mouse();
  void move_columns(int delta);
  void keep_cursor_in_view();
  void search();
  void search_step(bool forward);
  void run_pending_search();  // the typed search, once the stack catalog is in
  void update_panes();
  void update_compare();
  std::string category_split() const;  // the live bytes by category at the cursor
  std::vector<TextLine> category_lines() const;
  std::vector<TextLine> compare_lines() const;
  std::vector<TextLine> diff_lines(const CursorAnalysis& a, const CursorAnalysis& b) const;

  Terminal& terminal_;
  Session& b() const { return compared_->b(); }  // run B, when compared_
  std::unique_ptr<Session> a_;
  std::unique_ptr<Comparison> compared_;                  // run B and its alignment to A
  std::vector<std::unique_ptr<DocumentLoader>> loaders_;  // after the sessions: destroyed first
  DiffRows diff_rows_ = DiffRows::Location;
  TimelineChart chart_;
  TreePane top_down_, bottom_up_;
  MomentPane moment_;
  TextPane categories_, findings_, compare_;
  Pane pane_ = Pane::Moment;
  Focus focus_ = Focus::Chart;
  bool help_ = false;
  bool quit_ = false;
  std::string search_text_, message_;
  std::vector<uint32_t> matches_;
  // What the text panes were built from.
  struct PaneKey {
    size_t state = 0;
    const SessionCategories* categories = nullptr;
    size_t findings = 0;
    const CursorAnalysis* analysis_a = nullptr;
    const CursorAnalysis* analysis_b = nullptr;
    size_t state_b = 0;
    const RunAlignment* alignment = nullptr;
    DiffRows diff_rows = DiffRows::Location;
    bool stacks_in = false;  // both stack catalogs loaded (the call-path diff needs them)
    bool operator==(const PaneKey&) const = default;
  };
  std::optional<PaneKey> pane_key_;
  std::string category_split_;  // category_split() for pane_key_: the status line's second line
  bool search_pending_ = false;
};

}  // namespace snapscope::term
