#include <doctest/doctest.h>

#include <array>
#include <stdexcept>
#include <string>

#include "core/view/app_options.h"
#include "core/view/script.h"

using namespace snapscope;

TEST_CASE("view specs with and without a byte range") {
  const ViewSpec x_only = parse_view_spec("10:250.5");
  CHECK(x_only.x0 == 10);
  CHECK(x_only.x1 == 250.5);
  CHECK_FALSE(x_only.y0.has_value());
  const ViewSpec both = parse_view_spec("0:100,1K:1.5GiB");
  CHECK(*both.y0 == 1024);
  CHECK(*both.y1 == 1.5 * 1024 * 1024 * 1024);
  CHECK_THROWS_AS(parse_view_spec("100:10"), std::invalid_argument);
  CHECK_THROWS_AS(parse_view_spec("abc"), std::invalid_argument);
  CHECK_THROWS_AS(parse_view_spec("0:1,5"), std::invalid_argument);
  // The unit multiplier can carry a finite number past the double range.
  CHECK_THROWS_AS(parse_view_spec("0:1,0:1e308T"), std::invalid_argument);
  CHECK_THROWS_AS(parse_view_spec("0:1,1e308KiB:2e308KiB"), std::invalid_argument);
}

TEST_CASE("view specs in event numbers, as the axis labels them") {
  const ViewSpec events = parse_view_spec("e100:e250,0:1G");
  CHECK(events.events);
  CHECK(events.x0 == 100);
  CHECK(events.x1 == 250);
  CHECK(*events.y1 == 1024.0 * 1024 * 1024);
  CHECK(parse_view_spec("e7:e7").x1 == 7);  // one event
  CHECK_FALSE(parse_view_spec("7:8").events);
  CHECK_THROWS_WITH_AS(parse_view_spec("e10:20"), "event range 'e10:20' needs the form eFIRST:eLAST",
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(parse_view_spec("e20:e10"), "event range 'e20:e10' needs 0 <= FIRST <= LAST",
                       std::invalid_argument);
  CHECK_THROWS_AS(parse_view_spec("e-1:e10"), std::invalid_argument);
  CHECK_THROWS_AS(parse_view_spec("ex:e10"), std::invalid_argument);
}

TEST_CASE("sizes and addresses") {
  CHECK(parse_window_size("1920x1080").width == 1920);
  CHECK(parse_window_size("1920x1080").height == 1080);
  CHECK_THROWS_AS(parse_window_size("1920"), std::invalid_argument);
  CHECK_THROWS_AS(parse_window_size("10x10"), std::invalid_argument);
  CHECK(parse_address("0x7f00") == 0x7f00);
  CHECK(parse_address("4096") == 4096);
  CHECK_THROWS_AS(parse_address("0xzz"), std::invalid_argument);
  CHECK_THROWS_AS(parse_address(""), std::invalid_argument);
}

TEST_CASE("script commands parse into their structs") {
  const auto commands = parse_script(
      "# comment\nview 0:10\n\nclick 100 200  # trailing\nselect 0x10\nwait 50\n"
      "screenshot out.png\nprint-selection\ntimeline segments\ncolor site\nxaxis time\ndevice 1\nfit\n"
      "print-view\n",
      "s");
  REQUIRE(commands.size() == 12);
  CHECK(std::get<script::View>(commands[0]).spec.x1 == 10);
  CHECK(std::get<script::Click>(commands[1]).y == 200);
  CHECK(std::get<script::Select>(commands[2]).address == 16);
  CHECK(std::get<script::Wait>(commands[3]).milliseconds == 50);
  CHECK(std::get<script::Screenshot>(commands[4]).path == "out.png");
  CHECK(std::holds_alternative<script::PrintSelection>(commands[5]));
  CHECK(std::get<script::ShowTimeline>(commands[6]).segments);
  CHECK(std::get<script::Color>(commands[7]).coloring == ChartColoring::Site);
  CHECK(std::get<script::TimeAxis>(commands[8]).time);
  CHECK(std::get<script::Device>(commands[9]).device == 1);
  CHECK(std::holds_alternative<script::Fit>(commands[10]));
  CHECK(std::holds_alternative<script::PrintView>(commands[11]));
}

TEST_CASE("script: colour by category, rules files and findings") {
  const auto commands =
      parse_script("color category\nrules /tmp/r.json\nfinding 2\ntab findings\ncolor default\n", "s.txt");
  REQUIRE(commands.size() == 5);
  CHECK(std::get<script::Color>(commands[0]).coloring == ChartColoring::Category);
  CHECK(std::get<script::Rules>(commands[1]).path == "/tmp/r.json");
  CHECK(std::get<script::Finding>(commands[2]).index == 2);
  CHECK(std::get<script::Tab>(commands[3]).name == script::Tab::Name::Findings);
  CHECK(std::get<script::Color>(commands[4]).coloring == ChartColoring::Allocation);
}

TEST_CASE("script: the Modules tab and its print command") {
  const auto commands = parse_script("tab modules\nprint-modules\n", "s.txt");
  REQUIRE(commands.size() == 2);
  CHECK(std::get<script::Tab>(commands[0]).name == script::Tab::Name::Modules);
  CHECK_FALSE(std::get<script::Tab>(commands[0]).in_allocator_pane());
  CHECK(std::holds_alternative<script::PrintModules>(commands[1]));
  CHECK_THROWS_AS(parse_script("print-modules now\n", "s.txt"), std::invalid_argument);
}

TEST_CASE("script errors name the line") {
  try {
    parse_script("view 0:1\nfly away\n", "demo.txt");
    FAIL("expected an error");
  } catch (const std::invalid_argument& error) {
    CHECK(std::string(error.what()) == "demo.txt:2: unknown command 'fly'");
  }
  CHECK_THROWS_AS(parse_script_line("click 1"), std::invalid_argument);
  CHECK_THROWS_AS(parse_script_line("wait -5"), std::invalid_argument);
  CHECK_THROWS_WITH(parse_script_line("timeline both"),
                    "expected 'blocks', 'segments' or 'pools', got 'both'");
  const auto pools = std::get<script::ShowTimeline>(parse_script_line("timeline pools"));
  CHECK(pools.private_pools);
  CHECK_FALSE(pools.segments);
  CHECK_FALSE(std::get<script::ShowTimeline>(parse_script_line("timeline blocks")).private_pools);
}

TEST_CASE("command line options") {
  const std::array<std::string_view, 8> arguments = {"snap.pickle", "--screenshot", "a.png",   "--view",
                                                     "0:50",        "--size",       "800x600", "--segments"};
  const AppOptions options = parse_app_options(arguments);
  CHECK(options.path == "snap.pickle");
  CHECK(*options.screenshot == "a.png");
  CHECK(options.view->x1 == 50);
  CHECK(options.size.width == 800);
  CHECK(options.segments);
  CHECK_FALSE(options.private_pools);
  CHECK(options.headless());
  const std::array<std::string_view, 2> pools = {"snap.pickle", "--private-pools"};
  CHECK(parse_app_options(pools).private_pools);
  const std::array<std::string_view, 1> unknown = {"--fast"};
  CHECK_THROWS_AS(parse_app_options(unknown), std::invalid_argument);
  const std::array<std::string_view, 1> missing = {"--size"};
  CHECK_THROWS_AS(parse_app_options(missing), std::invalid_argument);
  const std::array<std::string_view, 2> two_paths = {"a", "b"};
  const AppOptions compared = parse_app_options(two_paths);  // run A and run B
  CHECK(compared.path == "a");
  CHECK(compared.compare_path == "b");
  const std::array<std::string_view, 3> three_paths = {"a", "b", "c"};
  CHECK_THROWS_WITH_AS(parse_app_options(three_paths), "more than two input paths given",
                       std::invalid_argument);
  CHECK_FALSE(parse_app_options({}).headless());
  CHECK_FALSE(options.image_size);  // --screenshot: --size is the window's
}

TEST_CASE("command line: --help lists every option and path of its table, then the keys") {
  const ArgTable table = app_arg_table();
  const std::string& usage = app_usage();
  for (const ArgOption& option : table.options) {
    CAPTURE(option.names.front());
    CHECK(usage.find("\n  " + std::string(option.names.front())) != std::string::npos);
  }
  CHECK(usage.find("\n  PATH ") != std::string::npos);
  CHECK(usage.find("\n  PATH_B ") != std::string::npos);
  CHECK(usage.find("\n  -h, --help ") != std::string::npos);
  CHECK(usage.find("\nkeys: ") != std::string::npos);
  const std::array<std::string_view, 2> help_later = {"a", "--help"};
  CHECK(parse_app_options(help_later).help);
  const std::array<std::string_view, 2> bad_device = {"--device", "gpu"};
  CHECK_THROWS_WITH_AS(parse_app_options(bad_device), "bad device 'gpu'", UsageError);
  const std::array<std::string_view, 1> unknown = {"--fast"};
  CHECK_THROWS_WITH_AS(parse_app_options(unknown), "unknown option --fast", UsageError);
}

TEST_CASE("command line options: with --export-png, --size is the PNG's size (svg's default without)") {
  const std::array<std::string_view, 5> sized = {"s.pickle", "--export-png", "c.png", "--size", "640x360"};
  const AppOptions options = parse_app_options(sized);
  REQUIRE(options.image_size);
  CHECK(options.image_size->width == 640);
  CHECK(options.image_size->height == 360);
  CHECK(options.size.width > 640);  // the window's first guess holds the rest of the layout
  CHECK(options.size.height > 360);
  const std::array<std::string_view, 3> plain = {"s.pickle", "--export-png", "c.png"};
  const AppOptions defaults = parse_app_options(plain);
  REQUIRE(defaults.image_size);
  CHECK(defaults.image_size->width == 1600);
  CHECK(defaults.image_size->height == 600);
}

TEST_CASE("script: quoted arguments keep their spaces; '#' inside quotes is not a comment") {
  const auto commands = parse_script(
      "screenshot \"/tmp/my shots/a #1.png\"  # the comment\n"
      "compare '/data/run b.pickle'\n"
      "export speedscope \"out \\\"x\\\".json\"\n"
      "tree-search it's a \"frame\"\n",
      "s");
  REQUIRE(commands.size() == 4);
  CHECK(std::get<script::Screenshot>(commands[0]).path == "/tmp/my shots/a #1.png");
  CHECK(std::get<script::Compare>(commands[1]).path == "/data/run b.pickle");
  CHECK(std::get<script::Export>(commands[2]).path == "out \"x\".json");
  CHECK(std::get<script::TreeSearch>(commands[3]).text == "it's a \"frame\"");
  CHECK_THROWS_WITH_AS(parse_script("screenshot \"/tmp/a.png\n", "s.txt"),
                       "s.txt:1: unterminated quote at column 12", std::invalid_argument);
}

TEST_CASE("script: click is the window's, chart-click the chart's; every tab and cursor none parse") {
  const auto commands = parse_script(
      "click 10 20\nchart-click 30 40\ntab events\ntab sql\ntab allocator\ntab settings\ntab moment\n"
      "cursor none\n",
      "s");
  REQUIRE(commands.size() == 8);
  CHECK(std::get<script::Click>(commands[0]).x == 10);
  CHECK(std::get<script::ChartClick>(commands[1]).y == 40);
  CHECK(std::get<script::Tab>(commands[2]).name == script::Tab::Name::Events);
  CHECK(std::get<script::Tab>(commands[2]).in_allocator_pane());
  CHECK(std::get<script::Tab>(commands[3]).name == script::Tab::Name::Sql);
  CHECK(std::get<script::Tab>(commands[4]).name == script::Tab::Name::Allocator);
  CHECK(std::get<script::Tab>(commands[5]).name == script::Tab::Name::Settings);
  CHECK_FALSE(std::get<script::Tab>(commands[6]).in_allocator_pane());
  CHECK(std::get<script::Cursor>(commands[7]).move == script::Cursor::Move::None);
  CHECK_THROWS_WITH_AS(
      parse_script_line("tab nope"),
      "tab needs one of call-tree, bottom-up, moment, phases, categories, modules, findings, compare, "
      "allocator, events, sql, settings; got 'nope'",
      std::invalid_argument);
}
