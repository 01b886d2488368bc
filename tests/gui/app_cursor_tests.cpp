// The time cursor, live call tree, moment table and search through the real app: script commands
// and real X key presses (xdotool) into the real window, checked against the core's numbers.
#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/analysis/live_elements.h"
#include "core/analysis/state_mapping.h"
#include "core/cursor/allocation_search.h"
#include "core/cursor/cursor_readout.h"
#include "core/cursor/time_cursor.h"
#include "core/document/document.h"
#include "gui_harness.h"

using namespace snapscope;
using namespace snapscope::gui_test;
namespace fs = std::filesystem;

namespace {

// A function name that allocates something live at the peak, to search for.
std::string frame_to_search(const Timeline& timeline, const StackCatalog& catalog) {
  for (const LiveElement& live : live_elements(timeline, peak_state(timeline))) {
    const auto frames = catalog.stack_frames(live.stack);
    if (!frames.empty() && !catalog.frame(frames.front()).name.empty()) {
      return std::string(catalog.frame(frames.front()).name);
    }
  }
  return {};
}

// The converted fixture, its stack catalog and a frame name worth searching for.
struct SearchSetup {
  std::unique_ptr<Document> document;
  std::shared_ptr<const StackCatalog> catalog;
  std::string frame;
  const Timeline& timeline() const { return document->devices.front().blocks; }
};

SearchSetup search_setup(const fs::path& sandbox, const std::string& input) {
  SearchSetup setup;
  setup.document = convert_with_app(sandbox, input);
  setup.catalog = catalog_from_elements_db(setup.document->elements_db().string());
  setup.frame = frame_to_search(setup.timeline(), *setup.catalog);
  REQUIRE_FALSE(setup.frame.empty());
  return setup;
}

size_t core_match_count(const Timeline& timeline, const StackCatalog& catalog, const std::string& text) {
  const auto query = parse_search_query(text, SearchMode::Auto);
  REQUIRE(query.has_value());
  return search_allocations(timeline, catalog, *query).size();
}

struct ChartRect {
  int x = 0, y = 0, width = 0, height = 0;
};

ChartRect chart_rect(const fs::path& sandbox, const std::string& input, const std::string& size) {
  const RunResult run = run_script(sandbox, input, "print-view\n", size);
  REQUIRE(run.exit_code == 0);
  const auto view = json_lines(run.out).at(0);
  return {static_cast<int>(view["chart"]["x"].get<double>()),
          static_cast<int>(view["chart"]["y"].get<double>()),
          static_cast<int>(view["chart"]["width"].get<double>()),
          static_cast<int>(view["chart"]["height"].get<double>())};
}

}  // namespace

TEST_CASE("script: at the peak the call tree root and the moment table hold memory_viz's peak") {
  const fs::path sandbox = make_sandbox("cursor-peak");
  const std::string input = fixture_pickle(sandbox).string();
  const RunResult run =
      run_script(sandbox, input, "cursor peak\nprint-cursor\ncursor step -3\nprint-cursor\n");
  REQUIRE(run.exit_code == 0);
  const auto lines = json_lines(run.out);
  REQUIRE(lines.size() == 2);
  const auto document = open_converted(sandbox, input);
  const DeviceDocument& device = document->devices.front();
  const Timeline& timeline = device.blocks;
  const auto& peak = lines[0];
  CHECK(peak["state"] == peak_state(timeline));
  CHECK(peak["tree"]["root_bytes"] == timeline.peak_bytes());
  CHECK(peak["tree"]["bottom_up_root_bytes"] == timeline.peak_bytes());
  CHECK(peak["moment"]["rows_sum"] == timeline.peak_bytes());
  CHECK(peak["moment"]["live_bytes"] == timeline.peak_bytes());
  CHECK(peak["allocated"] == timeline.peak_bytes());
  const auto readout = read_cursor(timeline, device.blocks, device.reserved, peak_state(timeline) - 3);
  const auto& back = lines[1];
  CHECK(back["state"] == peak_state(timeline) - 3);
  CHECK(back["event"] == readout.event);
  CHECK(back["reserved"] == readout.reserved_bytes);
  CHECK(back["tree"]["root_bytes"] == timeline.total_at_state(peak_state(timeline) - 3));
  CHECK(back["moment"]["rows_sum"] == back["tree"]["root_bytes"]);
}

TEST_CASE("script: search counts what the core matches and steps the cursor through matches") {
  const fs::path sandbox = make_sandbox("cursor-search");
  const std::string input = fixture_pickle(sandbox).string();
  const SearchSetup setup = search_setup(sandbox, input);
  const Timeline& timeline = setup.timeline();
  const StackCatalog& catalog = *setup.catalog;
  const std::string& frame = setup.frame;
  const RunResult run =
      run_script(sandbox, input,
                 "cursor none\nsearch " + frame + "\nsearch-next\nprint-cursor\nsearch-next\nprint-cursor\n");
  REQUIRE(run.exit_code == 0);
  const auto lines = json_lines(run.out);
  REQUIRE(lines.size() == 2);
  const size_t expected = core_match_count(timeline, catalog, frame);
  CHECK(expected > 0);
  CHECK(lines[0]["search"]["matches"] == expected);
  // Matches are visited in time order: the cursor never moves back (until it wraps).
  const auto query = parse_search_query(frame, SearchMode::Auto);
  const auto matches = search_allocations(timeline, catalog, *query);
  CHECK(lines[0]["state"] == timeline.alloc_state(matches.front()));
  if (matches.size() > 1) CHECK(lines[1]["state"] == timeline.alloc_state(matches[1]));
}

TEST_CASE("xdotool: clicking empty chart space places the cursor; arrows, Home, End and P move it") {
  const fs::path sandbox = make_sandbox("cursor-keys");
  const std::string input = fixture_pickle(sandbox).string();
  const ChartRect chart = chart_rect(sandbox, input, "1400x900");
  // The top of the chart is headroom above the peak: empty space.
  const int x = chart.x + chart.width / 2, y = chart.y + 4;
  const std::string key = "press ";
  const std::string out = drive_window(
      sandbox, input,
      {"xdotool mousemove --window \"$W\" " + std::to_string(x) + " " + std::to_string(y), "xdotool click 1",
       key + "ctrl+j", key + "Right", key + "ctrl+j", key + "shift+Right", key + "ctrl+j", key + "Left",
       key + "ctrl+j", key + "End", key + "ctrl+j", key + "Home", key + "ctrl+j", key + "p", key + "ctrl+j"});
  const auto lines = json_lines(out);
  REQUIRE(lines.size() == 7);
  const auto document = open_converted(sandbox, input);
  const DeviceDocument& device = document->devices.front();
  const Timeline& timeline = device.blocks;
  for (const auto& line : lines) REQUIRE(line["placed"] == true);
  const size_t placed = lines[0]["state"];
  CHECK(placed > 0);
  CHECK(placed < timeline.action_count());
  CHECK(lines[1]["state"] == placed + 1);
  CHECK(lines[2]["state"] == placed + 1 + large_step(timeline));
  CHECK(lines[3]["state"] == placed + large_step(timeline));
  CHECK(lines[4]["state"] == timeline.action_count());
  CHECK(lines[5]["state"] == 0);
  CHECK(lines[6]["state"] == peak_state(timeline));
  CHECK(lines[6]["tree"]["root_bytes"] == timeline.peak_bytes());
  for (const auto& line : lines) {
    const auto readout = read_cursor(timeline, device.blocks, device.reserved, line["state"].get<size_t>());
    CHECK(line["event"] == readout.event);
    CHECK(line["allocated"] == readout.allocated_bytes);
    CHECK(line["reserved"] == readout.reserved_bytes);
    CHECK(line["moment"]["rows_sum"] == readout.allocated_bytes);
  }
}

TEST_CASE("xdotool: typing a frame into the search bar counts the core's matches") {
  const fs::path sandbox = make_sandbox("cursor-typing");
  const std::string input = fixture_pickle(sandbox).string();
  const SearchSetup setup = search_setup(sandbox, input);
  const Timeline& timeline = setup.timeline();
  const StackCatalog& catalog = *setup.catalog;
  const std::string& frame = setup.frame;
  const std::string key = "press ";
  const std::string out =
      drive_window(sandbox, input,
                   {key + "ctrl+f", "sleep 1", "xdotool type --delay 40 " + shell_quote(frame), "sleep 0.5",
                    key + "Return", key + "ctrl+j"});
  const auto lines = json_lines(out);
  REQUIRE(lines.size() == 1);
  CHECK(lines[0]["search"]["query"] == frame);
  CHECK(lines[0]["search"]["matches"] == core_match_count(timeline, catalog, frame));
  CHECK(lines[0]["placed"] == true);  // Enter jumped to the first match in time
}

TEST_CASE("script: search meta:TEXT finds allocations by their event's compile_context") {
  const fs::path sandbox = make_sandbox("cursor-search-meta");
  const fs::path pickle = sandbox / "context.pickle";
  REQUIRE(std::system((shell_quote(SNAPSCOPE_GEN) + " -o " + shell_quote(pickle.string()) +
                       " --events 2000 --seed 3 --compile-context > /dev/null")
                          .c_str()) == 0);
  const auto document = convert_with_app(sandbox, pickle.string());
  const Timeline& timeline = document->devices.front().blocks;
  size_t traced = 0;  // the generator gives every event the context "N/A"
  for (uint32_t elem = 0; elem < timeline.element_count(); ++elem) {
    const ReplayElement& element = timeline.element(elem);
    traced += element.origin == Origin::Traced && element.alloc_event >= 0 && timeline.ever_live(elem);
  }
  const RunResult run = run_script(sandbox, pickle.string(),
                                   "search meta:n/a\nprint-cursor\nsearch-next\nprint-selection\n"
                                   "search meta:nosuchcontext\nprint-cursor\n");
  REQUIRE(run.exit_code == 0);
  const auto lines = json_lines(run.out);
  REQUIRE(lines.size() == 3);
  CHECK(traced > 100);
  CHECK(lines[0]["search"]["matches"] == traced);
  CHECK(lines[1]["compile_context"] == "N/A");
  CHECK(lines[2]["search"]["matches"] == 0);
}
