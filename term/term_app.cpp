#include "term/term_app.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <stdexcept>

#include "core/analysis/state_mapping.h"
#include "core/classify/category_evidence.h"
#include "core/compare/call_tree_diff.h"
#include "core/compare/moment_diff.h"
#include "core/cursor/allocation_search.h"
#include "core/cursor/cursor_readout.h"
#include "core/cursor/time_cursor.h"
#include "core/document/document_loader.h"
#include "core/findings/finding_text.h"
#include "core/snapshot/model.h"
#include "core/util/arg_parser.h"
#include "core/util/format.h"
#include "core/view/app_options.h"

namespace snapscope::term {
namespace {

constexpr int kBigJumpColumns = 10;  // Shift+arrow, b, f
constexpr double kZoomFactor = 2.0;

constexpr const char* kHelp[] = {
    "Timeline (the chart has the keys; Tab or Enter: the pane below)",
    "  Left/Right    one column            Shift+Left/Right, b/f  ten columns",
    "  Home/End      first / last event    p                      the peak",
    "  + / -         zoom around the cursor  0                    show everything",
    "  Up/Down       floor at the lowest total in view / at 0    r  reset the view",
    "  R             reserved memory line   A                     compare: alignment",
    "  mouse click   cursor to that column",
    "Panes: 1 call tree  2 bottom-up  3 moment table  4 categories  5 findings  6 compare",
    "  Up/Down, PgUp/PgDn  move           Enter  expand / open a row's allocations",
    "  Right/Left    child / parent        [ ]    previous / next sibling",
    "  e / c         expand all below / collapse all    f  focus   q  back (unfocus)",
    "  a / x         (allocations) cursor to the alloc / the free",
    "  g             compare: rows by location, category or call path",
    "Anywhere: / search frames (n / N: next / previous match in time), ? this help, q quit",
};

std::string phase_at(Session& session, size_t state) {
  const PhaseTable* table = session.phase_table("");
  if (table == nullptr) return {};
  const PhaseRow* inner = nullptr;
  for (const PhaseRow& row : table->rows) {
    if (row.start_state <= state && state <= row.end_state && (inner == nullptr || row.depth >= inner->depth))
      inner = &row;
  }
  return inner ? inner->name : std::string();
}

// --diff's call-path depth: deep enough for any real model's stack.
constexpr uint32_t kCallPathDepth = 32;

DiffRows next_diff_rows(DiffRows rows) {
  return rows == DiffRows::Location   ? DiffRows::Category
         : rows == DiffRows::Category ? DiffRows::CallPath
                                      : DiffRows::Location;
}

const char* diff_rows_name(DiffRows rows) {
  return rows == DiffRows::Location ? "location" : rows == DiffRows::Category ? "category" : "call path";
}

std::string percent_text(double percent) {
  char text[32];
  std::snprintf(text, sizeof text, "%+.1f %%", percent);
  return text;
}

const char* align_name(AlignMode mode) {
  return mode == AlignMode::Time ? "time" : mode == AlignMode::Steps ? "steps" : "events";
}

// The session as soon as `loader` has it: for a pickle, once its timelines exist, while the
// loader goes on writing its database (the session shows that it is pending).
std::unique_ptr<Session> open_session(Terminal& terminal, DocumentLoader& loader, const std::string& path,
                                      int device) {
  // The loader is asked this often, so the chart follows the load within a few milliseconds;
  // the progress line is redrawn only when its text changes.
  constexpr int kLoadPollMs = 10;
  struct KeyWaitWhileLoading {
    KeyWaitWhileLoading() { timeout(kLoadPollMs); }
    ~KeyWaitWhileLoading() { timeout(Terminal::kKeyWaitMs); }
  } key_wait;
  std::string shown;
  loader.start(path);
  while (true) {
    if (auto result = loader.take_result()) {
      if (!result->document) throw std::runtime_error(result->error);
      auto session = std::make_unique<Session>(std::move(result->document));
      if (device >= 0) {
        if (session->document()->find_device(device) == nullptr)
          throw std::runtime_error(path + ": no device " + std::to_string(device));
        session->select_device(device);
      }
      return session;
    }
    if (Terminal::interrupted()) return nullptr;
    const LoadProgress& progress = loader.progress();
    const std::string line = std::string(load_stage_name(progress.stage)) + " " + path + "  " +
                             std::to_string(static_cast<int>(progress.fraction * 100)) + "%";
    if (line != shown) {
      erase();
      terminal.put(terminal.rows() / 2, 2, fit_cells_left(line, terminal.cols() - 4, terminal.utf8()));
      refresh();
      shown = line;
    }
    if (getch() == KEY_RESIZE) shown.clear();  // waits at most kLoadPollMs; a new size redraws
  }
}

}  // namespace

namespace {

ArgTable term_table(TermOptions& o) {
  return {
      .synopsis = "usage: snapscope-term FILE [FILE_B] [--device N] [--bench]\n",
      .positionals =
          {{"FILE",
            "a snapshot .pickle / .pickle.gz / JSON snapshot (converted once into the viewer's cache) "
            "or a converted directory",
            1, 1, [&o](std::string_view path) { o.path = path; }, "no snapshot given"},
           {"FILE_B", "a second snapshot: its total over FILE's chart and a Compare pane", 0, 1,
            [&o](std::string_view path) { o.compare_path = path; }, ""}},
      .options = {{{"--device"},
                   "N",
                   "the device to show (default: the first with data)",
                   [&o](std::string_view text) { o.device = viewer_args::parse_device_option(text); }},
                  flag_option("--bench",
                              "replay a fixed walk through the keys, then print the key-press timings",
                              o.bench)},
      .epilogue =
          "In a terminal: the timeline, the cursor's call tree, moment table, categories and findings\n"
          "(? shows the keys). When standard output is not a terminal it prints snapscope-convert\n"
          "--report FILE (or --diff FILE FILE_B) and exits.\n",
      .unknown_option = viewer_args::unknown_option,
      .extra_positional = viewer_args::more_than_two_paths,
  };
}

// Answered before the table is read (core/store/version), listed with its options.
const HelpRow kVersionRow[] = {{"--version", "the version, and the converted-directory formats it reads"}};

}  // namespace

ArgTable term_arg_table() {
  static TermOptions unused;  // the table is read, never parsed into
  return term_table(unused);
}

const std::string& term_usage() {
  static const std::string usage = help_text(term_arg_table(), kVersionRow);
  return usage;
}

TermOptions parse_term_options(std::span<const std::string_view> args) {
  TermOptions options;
  options.help = parse_args(term_table(options), args) == ArgsResult::HelpAsked;
  return options;
}

int run_terminal(Terminal& terminal, const TermOptions& options, KeyTimings* bench) {
  // Each session before its loader, so that a loader still writing a database is joined
  // before the session it reports to goes.
  std::unique_ptr<Session> a, b;
  std::vector<std::unique_ptr<DocumentLoader>> loaders;
  loaders.push_back(std::make_unique<DocumentLoader>());
  a = open_session(terminal, *loaders.back(), options.path, options.device);
  if (a == nullptr) return Terminal::interrupt_exit_code();
  if (!options.compare_path.empty()) {
    loaders.push_back(std::make_unique<DocumentLoader>());
    b = open_session(terminal, *loaders.back(), options.compare_path, a->settings.device);
    if (b == nullptr) return Terminal::interrupt_exit_code();
  }
  TermApp app(terminal, std::move(a), std::move(b), std::move(loaders));
  if (!options.bench) return app.run();
  *bench = app.run_bench();
  return Terminal::interrupted() ? Terminal::interrupt_exit_code() : 0;
}

TermApp::TermApp(Terminal& terminal, std::unique_ptr<Session> a, std::unique_ptr<Session> b,
                 std::vector<std::unique_ptr<DocumentLoader>> loaders)
    : terminal_(terminal), a_(std::move(a)), loaders_(std::move(loaders)) {
  // Aligned by steps, as the viewer: falls back to events without them.
  if (b) compared_ = std::make_unique<Comparison>(*a_, std::move(b));
  if (compared_) pane_ = Pane::Compare;
}

int TermApp::run() {
  // A frame is drawn after a key or a background result, not every getch timeout: an idle
  // screen over millions of allocations costs nothing.
  bool changed = true;
  while (!quit_ && !Terminal::interrupted()) {
    if (poll()) changed = true;
    if (changed) draw();
    const int ch = getch();
    changed = ch != ERR;
    if (changed) handle(ch);
  }
  return Terminal::interrupted() ? Terminal::interrupt_exit_code() : 0;
}

bool TermApp::poll() {
  bool arrived = a_->poll();
  run_pending_search();
  if (compared_ && compared_->poll()) arrived = true;
  update_compare();
  update_panes();
  return arrived;
}

void TermApp::update_panes() {
  a_->request_analysis({});
  const auto& analysis = a_->analysis();
  const bool current = analysis && a_->cursor.placed() && analysis->timeline == a_->timeline();
  const StackSource* stacks = a_->stack_catalog().get();
  top_down_.set_tree(current && stacks ? &analysis->top_down : nullptr, stacks);
  bottom_up_.set_tree(current && stacks ? &analysis->bottom_up : nullptr, stacks);
  moment_.set_analysis(current ? analysis : nullptr);
  // The text panes are rebuilt only when what they show changed: a key press must stay cheap
  // at millions of allocations.
  const PaneKey key{a_->cursor.placed() ? a_->cursor.state() : SIZE_MAX,
                    a_->categories(),
                    a_->findings().size(),
                    analysis.get(),
                    compared_ ? b().analysis().get() : nullptr,
                    compared_ && b().cursor.placed() ? b().cursor.state() : SIZE_MAX,
                    compared_ ? compared_->alignment() : nullptr,
                    diff_rows_,
                    a_->stack_catalog() && (!compared_ || b().stack_catalog())};
  if (key == pane_key_) return;
  pane_key_ = key;
  category_split_ = category_split();
  categories_.set_lines(category_lines());
  findings_.set_lines(a_->categories() ? split_lines(findings_text(a_->findings()))
                                       : std::vector<TextLine>{{"classifying allocations...", Ink::Dim}});
  if (compared_) compare_.set_lines(compare_lines());
}

void TermApp::update_compare() {
  if (!compared_) return;
  const RunAlignment* aligned = compared_->alignment();
  if (aligned == nullptr) return;
  const Timeline& tb = b().device()->blocks;
  if (a_->cursor.placed()) b().cursor.place(tb, aligned->b_state(a_->cursor.state()));
  b().request_analysis({});
}

std::string TermApp::category_split() const {
  const SessionCategories* categories = a_->categories();
  const Timeline* timeline = a_->timeline();
  if (categories == nullptr || timeline == nullptr || !a_->cursor.placed())
    return "categories: classifying...";
  const Classification& classification = categories->classification;
  return category_breakdown(classification.names,
                            category_bytes_at(classification, *timeline, a_->cursor.state()));
}

std::vector<TextLine> TermApp::category_lines() const {
  const SessionCategories* categories = a_->categories();
  const Timeline* timeline = a_->timeline();
  if (categories == nullptr || timeline == nullptr) return {{"classifying allocations...", Ink::Dim}};
  if (!a_->cursor.placed()) return {{"place the cursor (p: the peak)", Ink::Dim}};
  const Classification& classification = categories->classification;
  const size_t state = a_->cursor.state();
  std::vector<TextLine> lines = {
      {"at the cursor: " + category_split_, Ink::Normal},
      {"evidence (certain: the allocation's own stack or lifetime says it; likely: inferred):", Ink::Dim}};
  for (TextLine& line : split_lines(
           category_evidence_text(classification, category_evidence_at(classification, *timeline, state))))
    lines.push_back(std::move(line));
  return lines;
}

std::vector<TextLine> TermApp::compare_lines() const {
  const Timeline& ta = a_->device()->blocks;
  const Timeline& tb = b().device()->blocks;
  const uint64_t peak_a = ta.peak_bytes(), peak_b = tb.peak_bytes();
  const int64_t delta = static_cast<int64_t>(peak_b) - static_cast<int64_t>(peak_a);
  std::vector<TextLine> lines = {
      {"A " + a_->document()->opened_path + "   B " + b().document()->opened_path, Ink::Dim},
      {"peak A " + format_bytes_exact(peak_a) + ", peak B " + format_bytes_exact(peak_b), Ink::Normal},
      {"peak delta: " + format_signed_bytes(delta) + " (" + std::to_string(delta) + " B, " +
           percent_text(growth_percent(peak_a, peak_b)) + ")",
       delta > 0 ? Ink::Hot : Ink::Mild}};
  const RunAlignment* aligned = compared_->alignment();
  if (aligned == nullptr) return lines;
  lines.push_back(
      {std::string("aligned by ") + align_name(aligned->effective_mode()) +
           (aligned->effective_mode() != compared_->mode() ? " (no matching steps: by events)" : "") +
           "   A to change; g: rows by " + diff_rows_name(next_diff_rows(diff_rows_)),
       Ink::Dim});
  const auto& analysis_a = a_->analysis();
  const auto& analysis_b = b().analysis();
  if (!analysis_a || !analysis_b || !a_->cursor.placed() || analysis_a->state != a_->cursor.state() ||
      analysis_b->state != b().cursor.state())
    return lines.push_back({"diffing at the cursor...", Ink::Dim}), lines;
  lines.push_back({"at the cursor: A event #" + std::to_string(event_of_state(ta, analysis_a->state)) +
                       ", B event #" + std::to_string(event_of_state(tb, analysis_b->state)),
                   Ink::Dim});
  for (TextLine& line : diff_lines(*analysis_a, *analysis_b)) lines.push_back(std::move(line));
  return lines;
}

// The diff's rows in the chosen grouping; the call-path rows are those --diff prints (changes of
// at least 1 % of the larger live total, with their callers).
std::vector<TextLine> TermApp::diff_lines(const CursorAnalysis& a, const CursorAnalysis& b) const {
  if (diff_rows_ == DiffRows::Location)
    return split_lines(moment_diff_text(diff_moments(a.moment, b.moment), 0));
  if (diff_rows_ == DiffRows::Category) {
    const SessionCategories* ca = a_->categories();
    const SessionCategories* cb = compared_->b().categories();
    if (ca == nullptr || cb == nullptr) return {{"classifying allocations...", Ink::Dim}};
    return split_lines(
        moment_diff_text(diff_moments(category_moment_table(a.live, ca->classification, a.state),
                                      category_moment_table(b.live, cb->classification, b.state)),
                         0, {"Category", "categories"}));
  }
  const auto& catalog_a = a_->stack_catalog();
  const auto& catalog_b = compared_->b().stack_catalog();
  if (!catalog_a || !catalog_b) return {{"loading the stacks...", Ink::Dim}};
  const MomentDiff totals = diff_moments(a.moment, b.moment);
  const uint64_t min_delta = std::max<uint64_t>(1, std::max(totals.live_a, totals.live_b) / 100);
  return split_lines(call_tree_diff_text(diff_call_trees(a.top_down, *catalog_a, b.top_down, *catalog_b),
                                         kCallPathDepth, min_delta));
}

void TermApp::draw() {
  erase();
  const int rows = terminal_.rows(), cols = terminal_.cols();
  draw_title();
  const int chart_height = std::max(6, (rows - 5) * 2 / 5);
  ChartRunB run_b;
  if (const RunAlignment* aligned = compared_ ? compared_->alignment() : nullptr)
    run_b = {&b().device()->blocks, aligned};
  chart_.draw(terminal_, *a_, {1, 0, chart_height, cols}, run_b);
  const int status_row = 1 + chart_height;  // two lines: the readout, the category split
  draw_status(status_row);
  draw_tabs(status_row + 2);
  draw_pane({status_row + 3, 0, std::max(1, rows - status_row - 4), cols});
  draw_hint(rows - 1);
  if (help_) draw_help();
  refresh();
}

void TermApp::draw_title() const {
  const Document* document = a_->document();
  std::string title =
      " snapscope-term  " + document->opened_path + "  device " + std::to_string(a_->settings.device);
  if (compared_) title += "  vs  " + b().document()->opened_path;
  // The chart came first: the stacks and the panes that read them follow the database.
  if (a_->database_writing() || (compared_ && b().database_writing())) title += "  (writing elements.db...)";
  terminal_.fill(0, 0, terminal_.cols(), Ink::Title);
  terminal_.put(0, 0, fit_cells_left(title, terminal_.cols() - 9, terminal_.utf8()), terminal_.cols() - 9,
                Ink::Title);
  terminal_.put(0, terminal_.cols() - 8, " ? help ", 8, Ink::Title);
}

void TermApp::draw_status(int row) const {
  const Timeline* timeline = a_->timeline();
  const DeviceDocument* device = a_->device();
  if (timeline == nullptr || device == nullptr || !a_->cursor.placed()) {
    terminal_.put(row, 0, "no cursor: p puts it at the peak, Left/Right at a column", terminal_.cols(),
                  Ink::Dim);
    return;
  }
  const CursorReadout readout = read_cursor(*timeline, device->blocks, device->reserved, a_->cursor.state());
  std::string status =
      readout.event < 0 ? std::string("before the first event") : "event #" + std::to_string(readout.event);
  if (readout.state == peak_state(*timeline)) status += " [peak]";
  if (readout.elapsed_us) status += "  t=+" + std::to_string(*readout.elapsed_us / 1000) + " ms";
  status += "  allocated " + format_bytes(static_cast<double>(readout.allocated_bytes)) + " (" +
            format_bytes_exact(readout.allocated_bytes) + ")  reserved " +
            format_bytes(static_cast<double>(readout.reserved_bytes));
  const std::string phase = phase_at(*a_, readout.state);
  if (!phase.empty()) status += "  phase " + phase;
  terminal_.put(row, 0, fit_cells(status, terminal_.cols(), terminal_.utf8()), terminal_.cols(), Ink::Normal,
                A_BOLD);
  // The second line: what the live memory is, by category.
  terminal_.put(row + 1, 0, fit_cells(category_split_, terminal_.cols(), terminal_.utf8()), terminal_.cols(),
                Ink::Normal);
}

void TermApp::draw_tabs(int row) const {
  static constexpr std::pair<Pane, const char*> kTabs[] = {
      {Pane::TopDown, "1 Call tree"},     {Pane::BottomUp, "2 Bottom-up"}, {Pane::Moment, "3 Moment"},
      {Pane::Categories, "4 Categories"}, {Pane::Findings, "5 Findings"},  {Pane::Compare, "6 Compare"}};
  int x = 0;
  for (const auto& [pane, label] : kTabs) {
    if (pane == Pane::Compare && !compared_) continue;
    const std::string text = std::string(" ") + label + " ";
    const bool shown = pane == pane_;
    terminal_.put(row, x, text, -1, shown ? Ink::Title : Ink::Dim,
                  shown && focus_ == Focus::Pane ? A_BOLD : A_NORMAL);
    x += cell_width(text) + 1;
  }
  if (focus_ == Focus::Chart) terminal_.put(row, x + 1, "(Tab: keys to the pane)", -1, Ink::Dim);
}

void TermApp::draw_hint(int row) const {
  std::string hint = message_;
  if (hint.empty() && !search_text_.empty() && !search_pending_)
    hint = "search '" + search_text_ + "': " + format_count(matches_.size(), "match", "matches") + " (n / N)";
  if (hint.empty())
    hint = "?: keys   q: quit   /: search   Tab: " + std::string(focus_ == Focus::Chart ? "pane" : "chart");
  terminal_.put(row, 0, fit_cells(hint, terminal_.cols(), terminal_.utf8()), terminal_.cols(), Ink::Dim);
}

void TermApp::draw_pane(Rect area) {
  switch (pane_) {
    case Pane::TopDown:
      top_down_.draw(terminal_, area);
      break;
    case Pane::BottomUp:
      bottom_up_.draw(terminal_, area);
      break;
    case Pane::Moment:
      moment_.draw(terminal_, area, *a_);
      break;
    case Pane::Categories:
      categories_.draw(terminal_, area);
      break;
    case Pane::Findings:
      findings_.draw(terminal_, area);
      break;
    case Pane::Compare:
      compare_.draw(terminal_, area);
      break;
  }
}

void TermApp::draw_help() const {
  const int width = std::min(terminal_.cols() - 2, 84);
  const int height = std::min(terminal_.rows() - 2, static_cast<int>(std::size(kHelp)) + 2);
  const int y = std::max(0, (terminal_.rows() - height) / 2), x = std::max(0, (terminal_.cols() - width) / 2);
  for (int r = 0; r < height; ++r) terminal_.fill(y + r, x, width, Ink::Normal, A_REVERSE);
  for (int r = 0; r + 2 < height && r < static_cast<int>(std::size(kHelp)); ++r)
    terminal_.put(y + 1 + r, x + 1, kHelp[r], width - 2, Ink::Normal, A_REVERSE);
}

void TermApp::handle(int ch) {
  message_.clear();
  if (help_) {
    help_ = false;
    return;
  }
  if (ch == KEY_MOUSE) return mouse();
  if (ch == KEY_RESIZE) return;
  if (ch == '\t') {
    focus_ = focus_ == Focus::Chart ? Focus::Pane : Focus::Chart;
    return;
  }
  if (focus_ == Focus::Chart && (ch == '\n' || ch == KEY_ENTER)) {
    focus_ = Focus::Pane;
    return;
  }
  if (focus_ == Focus::Chart && chart_key(ch)) return;
  if (focus_ == Focus::Pane) {
    bool used = false;
    switch (pane_) {
      case Pane::TopDown:
        used = top_down_.key(ch);
        break;
      case Pane::BottomUp:
        used = bottom_up_.key(ch);
        break;
      case Pane::Moment:
        used = moment_.key(ch, *a_);
        break;
      case Pane::Categories:
        used = categories_.key(ch);
        break;
      case Pane::Findings:
        used = findings_.key(ch);
        break;
      case Pane::Compare:
        used = compare_.key(ch);
        break;
    }
    if (used) return;
  }
  global_key(ch);
}

bool TermApp::global_key(int ch) {
  if (ch >= '1' && ch <= '6') {
    const auto pane = static_cast<Pane>(ch - '1');
    if (pane != Pane::Compare || compared_) pane_ = pane;
    return true;
  }
  switch (ch) {
    case 'q':
    case 27:  // Esc
      quit_ = ch == 'q';
      return true;
    case '?':
      help_ = true;
      return true;
    case '/':
      search();
      return true;
    case 'n':
    case 'N':
      search_step(ch == 'n');
      return true;
    case 'p':
      if (a_->timeline()) a_->cursor_to_peak();
      keep_cursor_in_view();
      return true;
    case 'g':
      diff_rows_ = next_diff_rows(diff_rows_);
      return true;
    case 'A':
      if (compared_)
        compared_->set_mode(compared_->mode() == AlignMode::Events ? AlignMode::Time
                            : compared_->mode() == AlignMode::Time ? AlignMode::Steps
                                                                   : AlignMode::Events);
      return true;
    default:
      return false;
  }
}

bool TermApp::chart_key(int ch) {
  const Timeline* timeline = a_->timeline();
  if (timeline == nullptr) return false;
  ViewTransform& view = a_->view;
  const double anchor = chart_.cursor_column(*a_).value_or(chart_.plot().width / 2) + 0.5;
  switch (ch) {
    case KEY_LEFT:
    case KEY_RIGHT:
      move_columns(ch == KEY_LEFT ? -1 : 1);
      return true;
    case KEY_SLEFT:
    case 'b':
      move_columns(-kBigJumpColumns);
      return true;
    case KEY_SRIGHT:
    case 'f':
      move_columns(kBigJumpColumns);
      return true;
    case KEY_HOME:
      a_->cursor.home(*timeline);
      keep_cursor_in_view();
      return true;
    case KEY_END:
      a_->cursor.end(*timeline);
      keep_cursor_in_view();
      return true;
    case '+':
    case '=':
      view.zoom_x_at(anchor, kZoomFactor);
      return true;
    case '-':
      view.zoom_x_at(anchor, 1 / kZoomFactor);
      return true;
    case '0':
      view.fit();
      return true;
    case KEY_UP:
      chart_.raise_floor = true;
      return true;
    case KEY_DOWN:
      chart_.raise_floor = false;
      return true;
    case 'r':
      view.fit();
      chart_.raise_floor = false;
      return true;
    case 'R':
      chart_.show_reserved = !chart_.show_reserved;
      return true;
    default:
      return false;
  }
}

void TermApp::move_columns(int delta) {
  const Timeline* timeline = a_->timeline();
  if (timeline == nullptr) return;
  const int from = chart_.cursor_column(*a_).value_or(delta > 0 ? -1 : chart_.plot().width);
  const int to = from + delta;
  if (to < 0 || to >= chart_.plot().width) {  // past the edge: the view follows
    const double shift = (delta > 0 ? 1 : -1) * std::max(1, std::abs(delta));
    a_->view.pan_pixels(-shift, 0);
  }
  if (const auto state = chart_.state_at_column(*a_, std::clamp(to, 0, chart_.plot().width - 1))) {
    const size_t before = a_->cursor.placed() ? a_->cursor.state() : SIZE_MAX;
    a_->cursor.place(*timeline, *state);
    if (a_->cursor.state() == before)
      a_->cursor.step(*timeline, delta > 0 ? 1 : -1);  // zoomed in past one state
  }
}

void TermApp::keep_cursor_in_view() {
  const Timeline* timeline = a_->timeline();
  if (timeline == nullptr || !a_->cursor.placed() || chart_.cursor_column(*a_)) return;
  const DataRect visible = a_->view.visible();
  const double x = state_x(*timeline, a_->cursor.state());
  DataRect moved = visible;
  moved.x0 = x - visible.width() / 2;
  moved.x1 = x + visible.width() / 2;
  a_->view.set_visible(moved);
}

void TermApp::mouse() {
  MEVENT event{};
  if (getmouse(&event) != OK || !chart_.plot().contains(event.y, event.x) || a_->timeline() == nullptr)
    return;
  if (const auto state = chart_.state_at_column(*a_, event.x - chart_.plot().x))
    a_->cursor.place(*a_->timeline(), *state);
}

void TermApp::search() {
  std::string text = search_text_;
  curs_set(1);
  while (!Terminal::interrupted()) {
    const int row = terminal_.rows() - 1;
    terminal_.fill(row, 0, terminal_.cols(), Ink::Normal);
    terminal_.put(row, 0, "/" + text);
    move(row, std::min(terminal_.cols() - 1, 1 + cell_width(text)));
    refresh();
    const int ch = getch();
    if (ch == ERR) continue;
    if (ch == 27) {
      curs_set(0);
      return;
    }
    if (ch == '\n' || ch == KEY_ENTER) break;
    if (ch == KEY_BACKSPACE || ch == 127 || ch == 8) {
      while (!text.empty() && (static_cast<unsigned char>(text.back()) & 0xC0) == 0x80) text.pop_back();
      if (!text.empty()) text.pop_back();
    } else if (ch >= 32 && ch < 256) {
      text += static_cast<char>(ch);
    }
  }
  curs_set(0);
  search_text_ = text;
  search_pending_ = true;
  run_pending_search();
}

void TermApp::run_pending_search() {
  const Timeline* timeline = a_->timeline();
  const StackCatalog* catalog = a_->stack_catalog().get();
  if (!search_pending_ || timeline == nullptr) return;
  const auto query = parse_search_query(search_text_, SearchMode::Auto);
  if (!query) {
    search_pending_ = false;
    return;
  }
  if (catalog == nullptr) {
    message_ = "reading the stacks; the search runs when they are in";
    return;  // poll() runs it again
  }
  search_pending_ = false;
  message_.clear();
  const std::string& text = search_text_;
  matches_ = search_allocations(*timeline, *catalog, *query);
  if (matches_.empty()) {
    message_ = "no allocation matches '" + text + "'";
    return;
  }
  // As the viewer's search: the first match in time, selected.
  a_->cursor.place(*timeline, timeline->alloc_state(matches_.front()));
  a_->select(matches_.front());
  keep_cursor_in_view();
}

void TermApp::search_step(bool forward) {
  const Timeline* timeline = a_->timeline();
  if (timeline == nullptr || matches_.empty()) return;
  const size_t at = a_->cursor.placed() ? a_->cursor.state() : 0;
  const auto match = forward ? next_match(*timeline, matches_, at, a_->selected())
                             : previous_match(*timeline, matches_, at, a_->selected());
  if (!match) return;
  a_->cursor.place(*timeline, timeline->alloc_state(*match));
  a_->select(*match);
  keep_cursor_in_view();
}

}  // namespace snapscope::term
