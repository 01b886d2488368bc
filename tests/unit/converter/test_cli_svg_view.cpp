// --export svg --view reads the view as the viewer does: eE0:eE1 are events, X0:X1 timesteps, y
// fits the totals in view when no byte range is given, and a view past the end is an error.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <regex>
#include <string>

#include "unit/support/cli_runner.h"
#include "unit/support/generated_snapshot.h"
#include "unit/support/test_store_fixture.h"

using namespace snapscope;
using snapscope::test::CliResult;
using snapscope::test::run_cli;
using snapscope::test::TempDir;

namespace {

// The smallest y (pixels from the top) any drawn shape reaches.
double highest_shape_top(const std::string& svg) {
  double top = 1e300;
  static const std::regex rect_y(R"(<rect class="[^"]*" x="[^"]*" y="([0-9.]+))");
  static const std::regex polygon(R"(<polygon[^>]* points="([^"]*))");
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), rect_y); it != std::sregex_iterator(); ++it)
    top = std::min(top, std::stod((*it)[1]));
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), polygon); it != std::sregex_iterator(); ++it) {
    const std::string points = (*it)[1];
    static const std::regex pair(R"([0-9.]+,([0-9.]+))");
    for (auto p = std::sregex_iterator(points.begin(), points.end(), pair); p != std::sregex_iterator(); ++p)
      top = std::min(top, std::stod((*p)[1]));
  }
  return top;
}

}  // namespace

TEST_CASE("cli: --export svg --view takes events as eE0:eE1, as the viewer's --view") {
  TempDir dir;
  test::write_generated(dir / "g.pickle", 4000, 7);
  REQUIRE(run_cli(dir, "--export svg g.pickle -o steps.svg --view 1000:2000").exit_code == 0);
  REQUIRE(run_cli(dir, "--export svg g.pickle -o events.svg --view e1000:e2000").exit_code == 0);
  REQUIRE(run_cli(dir, "--export svg g.pickle -o same.svg --view e1000:e2000").exit_code == 0);
  CHECK(test::read_file(dir / "steps.svg") != test::read_file(dir / "events.svg"));
  CHECK(test::read_file(dir / "same.svg") == test::read_file(dir / "events.svg"));
}

TEST_CASE("cli: --export svg --view without bytes fits y to the totals in view") {
  TempDir dir;
  test::write_generated(dir / "g.pickle", 4000, 7);
  REQUIRE(run_cli(dir, "--export svg g.pickle -o early.svg --view 0:40 --size 400x300").exit_code == 0);
  // Fitted, the highest total in view reaches the top but for the fit's 5 % headroom.
  CHECK(highest_shape_top(test::read_file(dir / "early.svg")) < 0.1 * 300);
  REQUIRE(run_cli(dir, "--export svg g.pickle -o fixed.svg --view 0:40,0:1000G --size 400x300").exit_code ==
          0);
  CHECK(highest_shape_top(test::read_file(dir / "fixed.svg")) > 0.9 * 300);  // an explicit range holds
}

TEST_CASE("cli: --export svg --view past the trace's end is an error and writes nothing") {
  TempDir dir;
  test::write_generated(dir / "g.pickle", 4000, 7);
  const CliResult steps = run_cli(dir, "--export svg g.pickle -o past.svg --view 99999999:100000000");
  CHECK(steps.exit_code == 1);
  CHECK(steps.err.find("g.pickle: --view starts at step 99999999, past the timeline's end") !=
        std::string::npos);
  const CliResult events = run_cli(dir, "--export svg g.pickle -o past.svg --view e99999999:e100000000");
  CHECK(events.exit_code == 1);
  CHECK(events.err.find("--view starts at event #99999999, after the timeline's last event #") !=
        std::string::npos);
  CHECK(!std::filesystem::exists(dir / "past.svg"));
}
