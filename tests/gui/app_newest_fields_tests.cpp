// What the newest snapshots carry, through the real app: memory_viz's "Allocated Memory (incl.
// Private Pools)" (`timeline pools` draws each private pool's envelope, its inactive memory gray,
// the cursor goes to that view's peak, a device without pools says so), and annotate notes as
// markers on the chart.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "core/document/document.h"
#include "core/store/elements_db/elements_db_reader.h"
#include "core/util/chart_palette.h"
#include "gui_harness.h"
#include "tests/unit/support/private_pools_fixture.h"

using namespace snapscope;
using namespace snapscope::gui_test;
namespace fs = std::filesystem;

namespace {

uint32_t rgb_of(Rgba color) {
  const auto byte = [](float v) { return static_cast<uint32_t>(std::lround(v * 255.0f)); };
  return byte(color.r) << 16 | byte(color.g) << 8 | byte(color.b);
}

int pixels_of(const Image& image, uint32_t rgb) {
  int count = 0;
  for (int y = 0; y < image.height; ++y) {
    for (int x = 0; x < image.width; ++x) count += image.pixel(x, y) == rgb ? 1 : 0;
  }
  return count;
}

}  // namespace

TEST_CASE("script: 'timeline pools' draws private pools' envelopes, at that view's peak") {
  const fs::path sandbox = make_sandbox("private-pools");
  const fs::path input = sandbox / "pools.json";
  {
    std::ofstream out(input);
    out << test::private_pools_snapshot().dump();
  }
  const fs::path active = sandbox / "active.png", pools = sandbox / "pools.png";
  const RunResult run = run_script(sandbox, input.string(),
                                   "screenshot " + active.string() +
                                       "\ntimeline pools\ncursor peak\nprint-cursor\nscreenshot " +
                                       pools.string() + "\nexport svg " + (sandbox / "pools.svg").string() +
                                       "\ntimeline blocks\nprint-cursor\n");
  REQUIRE(run.exit_code == 0);
  const auto lines = json_lines(run.out);
  REQUIRE(lines.size() == 2);
  const auto& shown = lines[0]["private_pools"];
  REQUIRE(shown.is_object());
  CHECK(shown["peak_bytes"] == 12320768);  // memory_viz's, see test_private_pool_view.cpp
  CHECK(shown["total_bytes"] == 12320768);
  CHECK(lines[0]["state"] == shown["peak_state"]);
  REQUIRE(shown["pools"].size() == 3);
  CHECK(shown["pools"][0]["pool"] == nlohmann::json::array({1, 5}));
  CHECK(shown["pools"][0]["final_envelope_bytes"] == 4980736);
  CHECK(lines[0]["peak_bytes"] == 8650752);    // the active timeline's own peak is unchanged
  CHECK(lines[1]["private_pools"].is_null());  // back on the Active Memory Timeline

  // The pools' inactive memory is drawn gray, and only in the pools view.
  const uint32_t gray = rgb_of(kPoolInactiveColor);
  CHECK(pixels_of(load_png(active), gray) == 0);
  CHECK(pixels_of(load_png(pools), gray) > 5000);
  // File > Export's svg is the chart on screen: the pools' inactive memory included.
  std::ifstream svg(sandbox / "pools.svg");
  const std::string text((std::istreambuf_iterator<char>(svg)), {});
  CHECK(text.find("<rect class=\"p\"") != std::string::npos);
}

TEST_CASE("script: 'timeline pools' on a device without private pools is a clear error") {
  const fs::path sandbox = make_sandbox("no-private-pools");
  const fs::path pickle = sandbox / "plain.pickle";
  const std::string generate = shell_quote(SNAPSCOPE_GEN) + " -o " + shell_quote(pickle.string()) +
                               " --events 500 --seed 2 > /dev/null";
  REQUIRE(std::system(generate.c_str()) == 0);
  const fs::path script = sandbox / "pools.txt";
  std::ofstream(script) << "timeline pools\n";
  // stderr into the captured output: the error line is what the user reads.
  const RunResult run =
      run_app(sandbox, shell_quote(pickle.string()) + " --script " + shell_quote(script.string()) + " 2>&1");
  CHECK(run.exit_code != 0);
  CHECK(run.out.find("timeline pools: this device has no private memory pool") != std::string::npos);
}

TEST_CASE("script: notes (annotate events) are markers along the chart's top, with their metadata") {
  const fs::path sandbox = make_sandbox("memory-notes");
  const fs::path pickle = sandbox / "notes.pickle";
  const std::string generate = shell_quote(SNAPSCOPE_GEN) + " -o " + shell_quote(pickle.string()) +
                               " --events 3000 --seed 6 --memory-notes > /dev/null";
  REQUIRE(std::system(generate.c_str()) == 0);
  const fs::path png = sandbox / "notes.png";
  const RunResult run = run_script(sandbox, pickle.string(), "print-view\nscreenshot " + png.string() + "\n");
  REQUIRE(run.exit_code == 0);
  const auto lines = json_lines(run.out);
  REQUIRE(lines.size() == 1);
  // Markers closer than a pixel column share one.
  const auto document = open_converted(sandbox, pickle.string());
  const size_t notes = ElementsDbReader(document->elements_db().string()).annotate_events(0).size();
  REQUIRE(notes >= 20);
  const size_t drawn = lines[0]["note_markers"].get<size_t>();
  CHECK(drawn > 10);
  CHECK(drawn <= notes);
  // They are drawn in their own colour just below the chart's top edge.
  const Image image = load_png(png);
  const int top = static_cast<int>(lines[0]["chart"]["y"].get<double>()) + 2;
  int marker_pixels = 0;
  for (int x = 0; x < image.width; ++x) marker_pixels += image.pixel(x, top) == 0xffe678 ? 1 : 0;
  CHECK(marker_pixels >= static_cast<int>(drawn));

  // Without notes, none.
  const RunResult plain = run_script(sandbox, fixture_pickle(sandbox).string(), "print-view\n");
  REQUIRE(plain.exit_code == 0);
  CHECK(json_lines(plain.out).at(0)["note_markers"] == 0);
}
