// The viewer's command language, shared by the command line (--view, --size) and --script files.
// One command per line; '#' starts a comment. Commands:
//   view X0:X1[,Y0:Y1]   visible steps, or eE0:eE1 events #E0..#E1 as the axis labels them (and bytes;
//                        suffixes K/M/G/T mean KiB/MiB/GiB/TiB)
//   fit                  show everything
//   device N             switch device ('host': pinned host memory, device 128)
//   timeline blocks|segments|pools   pools: memory_viz's "Allocated Memory (incl. Private Pools)"
//   color default|site|category
//   xaxis index|time
//   rules FILE           load a category rules file (docs/RULES.md) and reclassify
//   finding N            activate finding N (0-based) of the Findings tab: cursor and selection
//   compare FILE         open FILE as run B beside the open file (waits for it)
//   align events|time|steps   how run B's moments line up with run A's
//   compare-layout overlay|stacked   B's curves over A's chart, or B's own chart below A's
//   compare-by location|category|path   how the Compare tab groups its rows
//   compare-row N        click the Compare tab's row N (0-based, as shown): highlight it in both runs
//   print-compare        the Compare tab's diff (both moments, rows by location, category and call
//                        path, the highlighted row), one JSON line
//   print-ranks          the rank table (snapscope DIR), one JSON line
//   rank-open N          open rank N (0-based) of the rank table (waits for it)
//   rank-compare I J     open ranks I and J as a comparison (A and B)
//   click X Y            a left click at window pixel (X, Y), on whatever is drawn there
//   chart-click X Y      the chart's click at window pixel (X, Y): places the cursor or selects,
//                        even where a tooltip or popup covers the chart
//   hover X Y            the pointer rests at window pixel (X, Y) (hover outline and tooltip)
//   zoom-selection       frame the selection's lifetime in both axes (inspector's button)
//   yfit on|off|floor    time zoom fits y from 0 / keeps y / fits y from the lowest total
//   phase N              select the Nth annotated phase (as clicking it), print it as JSON
//   select ADDRESS       select the first allocation at this address (hex 0x... or decimal)
//   wait MS              keep rendering for MS milliseconds
//   screenshot FILE.png
//   print-selection      the selection as one JSON line on stdout
//   print-view           chart rectangle (window pixels) and visible data range, one JSON line
//   cursor peak|home|end|none place the time cursor (none: remove it); also: cursor state N,
//                        cursor step N (+/-)
//   search TEXT          frame substring, address, or meta:TEXT (user_metadata / compile_context);
//                        search-next / search-previous step the cursor
//   print-cursor         cursor, call tree root and moment table totals, one JSON line
//   print-modules        the Modules tab's tree at the cursor (live bytes by nn.Module call), one
//                        JSON line
//   export FORMAT FILE   File > Export: a snapscope-convert --export FORMAT, or png, at the cursor
//   tab NAME             show a tab: call-tree, bottom-up, moment, phases, categories, modules,
//                        findings, compare (the analysis pane); allocator, events, sql, settings (the
//                        allocator pane)
// Arguments with spaces are quoted: "a b" (with \" and \\ inside), or 'a b' (literal).
// Commands that cannot apply (device N the snapshot lacks, xaxis time without timestamps, a tab
// that is not there) are errors: the script stops with a non-zero exit.
//   tree-search TEXT     search the shown call tree (the rest of the line), as typing after '/'

#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "core/view/chart_coloring.h"
#include "core/view/view_transform.h"

namespace snapscope {

// A --view argument: x range, and optionally y range. The x range is memory_viz timesteps
// ("X0:X1") or, as the axis labels them, trace event numbers ("eE0:eE1": from event #E0's start to
// event #E1's end, both included; not "#", which starts a comment in scripts and shells).
struct ViewSpec {
  double x0 = 0, x1 = 0;
  bool events = false;  // x0 and x1 are event numbers
  std::optional<double> y0, y1;
};

struct WindowSize {
  int width = 0, height = 0;
};

namespace script {
struct View {
  ViewSpec spec;
};
struct Fit {};
struct Device {
  int device = 0;
};
struct ShowTimeline {
  bool segments = false;
  bool private_pools = false;  // "pools": the blocks timeline with private pools' inactive memory
};
struct Color {
  ChartColoring coloring = ChartColoring::Allocation;
};
struct Rules {
  std::string path;  // a category rules file (docs/RULES.md)
};
struct Compare {
  std::string path;  // run B: loaded (the script waits for it) and compared with the open file
};
struct Align {
  std::string mode;  // events | time | steps
};
struct CompareLayout {
  bool stacked = false;
};
struct CompareBy {
  std::string grouping;  // location | category | path
};
struct CompareRow {
  size_t index = 0;
};
struct PrintCompare {};
struct PrintRanks {};
struct RankOpen {
  size_t index = 0;
};
struct RankCompare {
  size_t a = 0, b = 0;
};
struct Finding {
  size_t index = 0;  // activates finding `index` (0-based): cursor and selection
};
struct TimeAxis {
  bool time = false;
};
struct Click {
  double x = 0, y = 0;
};
struct ChartClick {
  double x = 0, y = 0;
};
struct Select {
  uint64_t address = 0;
};
struct Hover {
  double x = 0, y = 0;
};
struct ZoomSelection {};
struct Phase {
  size_t index = 0;
};
struct YFit {
  enum class Mode : uint8_t { On, Off, Floor };
  Mode mode = Mode::On;
};
struct Wait {
  int milliseconds = 0;
};
struct Screenshot {
  std::string path;
};
struct PrintSelection {};
struct PrintView {};
struct Cursor {
  enum class Move : uint8_t { Peak, Home, End, State, Step, None };
  Move move = Move::Peak;
  int64_t value = 0;  // State: the state; Step: states to move (negative: back)
};
struct Search {
  std::string text;
};
struct SearchStep {
  bool forward = true;
};
struct PrintCursor {};
struct PrintModules {};
struct Export {
  std::string format, path;
};
struct Tab {
  enum class Name : uint8_t {
    CallTree,
    BottomUp,
    Moment,
    Phases,
    Categories,
    Modules,
    Findings,
    Compare,
    Allocator,
    Events,
    Sql,
    Settings
  };
  // The analysis pane's tabs come first; the allocator pane's from Allocator on.
  bool in_allocator_pane() const { return name >= Name::Allocator; }
  Name name = Name::CallTree;
};
struct TreeSearch {
  std::string text;
};
}  // namespace script

using ScriptCommand =
    std::variant<script::View, script::Fit, script::Device, script::ShowTimeline, script::Color,
                 script::TimeAxis, script::Click, script::Select, script::Wait, script::Screenshot,
                 script::PrintSelection, script::PrintView, script::Cursor, script::Search,
                 script::SearchStep, script::PrintCursor, script::Export, script::Hover,
                 script::ZoomSelection, script::YFit, script::Phase, script::Tab, script::TreeSearch,
                 script::Rules, script::Finding, script::Compare, script::Align, script::PrintCompare,
                 script::PrintRanks, script::RankOpen, script::RankCompare, script::CompareLayout,
                 script::CompareBy, script::CompareRow, script::ChartClick, script::PrintModules>;

// These throw std::invalid_argument with a message naming what is wrong.
ViewSpec parse_view_spec(std::string_view text);
WindowSize parse_window_size(std::string_view text);     // "WxH"
double parse_byte_count(std::string_view text);          // "1536", "1.5G", "2MiB"
uint64_t parse_address(std::string_view text);           // "0x7f00", "4096"
ScriptCommand parse_script_line(std::string_view line);  // line must not be blank or a comment

// A whole script; errors are "<name>:<line>: <message>" in std::invalid_argument.
std::vector<ScriptCommand> parse_script(std::string_view text, std::string_view name);

}  // namespace snapscope
